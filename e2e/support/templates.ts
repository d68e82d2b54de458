import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { until } from './wait.ts';

/**
 * A journey's server starts on a copy of a database that a first start of the real server made
 * earlier in the same run, instead of migrating and seeding its own: a first start seeds the demo
 * members and runs the income engine over the past weeks (issue 16), several seconds of every
 * journey's start; a copy takes under a second. The copy is exactly what a first start leaves (the
 * real server made it, with the journey's seed and administrator settings), so the journey's server
 * then starts as on any database that has its administrator.
 *
 * Only within a vitest run (vitest.config.ts sets E2E_TEMPLATE_RUN; bench and scripts start their
 * servers as before). A template is keyed by the run, the settings a first start reads and the
 * India day (a journey's "today" is the day its data was made for).
 */
export const templateRun = (): string | undefined => process.env.E2E_TEMPLATE_RUN || undefined;

/** The environment a first start's data depends on. */
const KEYED = ['SEED_MEMBERS', 'ADMIN_EMAIL', 'ADMIN_PASSWORD'];

/** A journey's settings that the template's first start takes (the rest, e.g. a soak's probe file, stay the journey's). */
export const keyedEnv = (env: Record<string, string>) =>
  Object.fromEntries(KEYED.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));

function templateName(run: string, env: Record<string, string | undefined>): string {
  const day = new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);
  const key = createHash('sha256').update(JSON.stringify([day, ...KEYED.map((k) => env[k] ?? '')])).digest('hex').slice(0, 10);
  return `bo_e2e_tpl_${run}_${key}`;
}

async function onServer<T>(server: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export const databaseUrl = (server: string, name: string) => {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Any constant: the advisory lock held while a journey template is made. */
const BUILD_LOCK = 1_608_2026;

/**
 * PostgreSQL: the name of the run's template database for `env`, made by `firstStart` (a server
 * started on it and stopped) if no journey has made it yet. Made under a temporary name and renamed
 * when complete, under an advisory lock, so two journeys never make it twice or use half of one.
 */
export async function postgresTemplate(
  server: string, run: string, env: Record<string, string | undefined>, firstStart: (databaseUrl: string) => Promise<void>,
): Promise<string> {
  const name = templateName(run, env);
  return onServer(server, async (c) => {
    await c.query('select pg_advisory_lock($1)', [BUILD_LOCK]);
    try {
      if ((await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 0) {
        const part = `${name}_part`;
        await c.query(`drop database if exists ${part} with (force)`);
        await c.query(`create database ${part}`);
        await firstStart(databaseUrl(server, part));
        await c.query(`alter database ${part} rename to ${name}`);
      }
      return name;
    } finally {
      await c.query('select pg_advisory_unlock($1)', [BUILD_LOCK]);
    }
  });
}

const templatesDir = os.tmpdir();

/**
 * PGlite: fills the empty `dataDir` with a copy of the run's template data directory for `env`,
 * made by `firstStart` if no journey has made it yet (a lock file keeps two from making it).
 */
export async function copyPgliteTemplate(
  dataDir: string, run: string, env: Record<string, string | undefined>, firstStart: (dataDir: string) => Promise<void>,
): Promise<void> {
  const dir = path.join(templatesDir, templateName(run, env));
  const lock = `${dir}.lock`;
  const mine = await until(() => {
    if (fs.existsSync(dir)) return 'copy';
    try {
      fs.mkdirSync(lock);
      return 'make';
    } catch {
      return undefined; // another journey is making it
    }
  }, () => `the journey template ${dir} was not made`, 300_000);
  if (mine === 'make') {
    try {
      const part = `${dir}.part`;
      fs.rmSync(part, { recursive: true, force: true });
      await firstStart(part);
      fs.renameSync(part, dir);
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  fs.cpSync(dir, dataDir, { recursive: true });
}

/** Removes the run's templates (the journeys' global setup, at the end of the run). */
export async function dropTemplates(run: string): Promise<void> {
  const prefix = `bo_e2e_tpl_${run}_`;
  for (const entry of fs.readdirSync(templatesDir)) {
    if (entry.startsWith(prefix)) fs.rmSync(path.join(templatesDir, entry), { recursive: true, force: true });
  }
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return;
  await onServer(server, async (c) => {
    const { rows } = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await c.query(`drop database if exists ${datname} with (force)`);
  });
}
