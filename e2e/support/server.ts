import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { copyPgliteTemplate, keyedEnv, postgresTemplate, templateRun } from './templates.ts';
import { answersOk, until } from './wait.ts';

export const E2E_ADMIN = { email: 'e2e-admin@test.local', password: 'e2e-admin-password' };

/** Signs the e2e administrator in through the API (no browser): the token and the account. */
export async function adminLogin(baseUrl: string): Promise<{ token: string; user: { userId: number } }> {
  const res = await fetch(`${baseUrl}/api/Adminlogin`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(E2E_ADMIN),
  });
  return ((await res.json()) as { data: { token: string; user: { userId: number } } }).data;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Waits until /api/health answers 200 (for servers started with noWait). */
  healthy: () => Promise<void>;
  /** Where the server keeps its data: a PGlite directory, or a PostgreSQL database URL. */
  dataDir: string;
  databaseUrl: string | undefined;
  output: () => string;
  /** The server process's id (to read its memory use from /proc). */
  pid: number;
  /** Sends a signal (SIGKILL for a crash) and waits for the process to exit. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
  /** SIGTERM, and waits for the process to exit (it closes its database first). */
  stop(): Promise<number | null>;
  /** Removes the data it ran on. */
  cleanUp(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  try {
    await until(async () => {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
      return answersOk(`${url}/api/health`);
    }, () => `server did not become healthy:\n${output()}`, 150_000, 200);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/**
 * A fresh database on the PostgreSQL server named by TEST_DATABASE_URL (empty, or a copy of
 * `template`), and how to drop it.
 */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `bo_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Share this PostgreSQL database (several copies on one database); it is not dropped. */
  databaseUrl?: string;
  /** Resolve as soon as the process is spawned, without waiting for /api/health. */
  noWait?: boolean;
  /** Open this existing PGlite directory (kept afterwards) instead of a fresh one. */
  dataDir?: string;
  /** Extra flags for node, before the server's entry point (e.g. `--expose-gc`). */
  nodeArgs?: string[];
}

/** The settings every journey's server starts with (a journey's `env` adds to them). */
const JOURNEY_ENV = {
  ADMIN_EMAIL: E2E_ADMIN.email,
  ADMIN_PASSWORD: E2E_ADMIN.password,
  SEED_MEMBERS: '60',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
  // A journey's numbers must not depend on the time of day: the income engine's schedule would
  // run today's payouts once 18:00 India time has passed. A journey that wants it turns it on.
  ENGINE_SCHEDULE: 'off',
};

/** What a first start on an empty database leaves behind: the server started on it, then stopped. */
async function firstStart(where: { databaseUrl: string } | { dataDir: string }, env: Record<string, string>) {
  const server = await startServer({ ...where, env });
  const code = await server.stop();
  if (code !== 0) throw new Error(`the template's first start exited with ${code}:\n${server.output()}`);
}

/**
 * Starts the real server (`src/server/main.ts`) as its own process on a free port, serving the
 * built panel from dist/web, on a fresh PGlite directory — or on a fresh PostgreSQL database
 * when TEST_DATABASE_URL is set. In a vitest run that fresh database is a copy of what a first
 * start makes (templates.ts); a journey that names its own database or directory gets a real
 * first start.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-e2e-'));
  let databaseUrl = options.databaseUrl;
  let dropDatabase = async () => {};
  const run = templateRun();
  const settings = { ...JOURNEY_ENV, ...options.env };
  if (!databaseUrl && !options.dataDir && process.env.TEST_DATABASE_URL) {
    const template = run
      ? await postgresTemplate(process.env.TEST_DATABASE_URL, run, settings, (url) => firstStart({ databaseUrl: url }, keyedEnv(settings)))
      : undefined;
    const created = await createPostgresDatabase(template);
    databaseUrl = created.url;
    dropDatabase = created.drop;
  } else if (!databaseUrl && !options.dataDir && run) {
    await copyPgliteTemplate(dataDir, run, settings, (dir) => firstStart({ dataDir: dir }, keyedEnv(settings)));
  }
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'src/server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const url = `http://127.0.0.1:${port}`;
  if (!options.noWait) await waitHealthy(url, child, () => out);
  return {
    url,
    port,
    healthy: () => waitHealthy(url, child, () => out),
    dataDir,
    databaseUrl,
    output: () => out,
    pid: child.pid!,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    async cleanUp() {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await dropDatabase();
      if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
