import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { ensureAdmin, ensureReferenceData } from '../db/bootstrap.ts';
import { seedDemoData } from '../db/demo-data.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './pglite-template.ts';

/**
 * Seeded test databases made once per run and member count, then copied for every test file that
 * asks for that many members. Seeding runs the income engine over the past weeks (issue 16: about
 * 66 runs, 2.5–4 s on PGlite, 10–15 s on a busy PostgreSQL server); a copy takes well under a
 * second. A copy is the same data the file would have seeded itself, made earlier in the same run
 * and on the same India day (the day is part of the key, so a run that crosses midnight seeds
 * afresh: the engine's catch-up and "today" must agree).
 */
export const istDay = () => new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);

/** Waits on `ready` (every 100 ms), at most `timeoutMs`. */
async function until<T>(ready: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = ready();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * PGlite: the seeded data directory's dump, in `dir` (the run's template folder). The first file
 * of a run to ask for a size seeds its own database and leaves its dump there (a lock file keeps
 * two from building it at once); the others load the dump. Returns the caller's database.
 */
export async function seededPglite(dir: string, base: Blob, members: number): Promise<Database> {
  const file = path.join(dir, `seeded-${members}-${istDay()}.tar`);
  const lock = `${file}.lock`;
  const dump = await until(() => {
    if (fs.existsSync(file)) return 'load' as const;
    try {
      fs.closeSync(fs.openSync(lock, 'wx'));
      return 'build' as const;
    } catch {
      return undefined; // another worker is building it
    }
  }, 300_000, `the seeded PGlite template of ${members} members`);
  if (dump === 'load') return openPglite(undefined, new Blob([fs.readFileSync(file)]));
  try {
    const database = await openPglite(undefined, base);
    await seedDemoData(database, { members });
    const data = Buffer.from(await (await database.dump!()).arrayBuffer());
    fs.writeFileSync(`${file}.part`, data);
    fs.renameSync(`${file}.part`, file);
    return database;
  } finally {
    fs.rmSync(lock, { force: true });
  }
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

const databaseUrl = (server: string, name: string) => {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
};

/** A throw-away database on the server, a copy of `template` (as throwawayPostgres names and drops one). */
export async function cloneDatabase(server: string, template: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bo_test_${randomBytes(6).toString('hex')}`;
  await onServer(server, (c) => c.query(`create database ${name} template ${template}`));
  return {
    url: databaseUrl(server, name),
    drop: () => onServer(server, async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

/** Any constant: the advisory lock (with the member count) held while a seeded template is built. */
const BUILD_LOCK = 1_607_2026;

/**
 * PostgreSQL: the migrated template (reference data and the test administrator) every test file's
 * database is cloned from (CREATE DATABASE … TEMPLATE copies files, no migration runs again).
 */
export async function buildPostgresTemplate(server: string, name: string): Promise<void> {
  await onServer(server, (c) => c.query(`create database ${name}`));
  const database = await openPostgres(databaseUrl(server, name), 2);
  try {
    await database.migrate();
    await ensureReferenceData(database);
    await ensureAdmin(database, ADMIN_EMAIL, ADMIN_PASSWORD, () => ADMIN_PASSWORD);
  } finally {
    await database.close();
  }
}

/**
 * PostgreSQL: the template `base` seeded with `members` members, built by the first file of the
 * run that asks (under an advisory lock on the server; built under a temporary name and renamed
 * when complete, so a crash mid-way never leaves a half-seeded template). Returns its name.
 */
export async function seededPostgres(server: string, base: string, members: number): Promise<string> {
  const name = `${base}_m${members}_${istDay().replaceAll('-', '')}`;
  return onServer(server, async (c) => {
    await c.query('select pg_advisory_lock($1, $2)', [BUILD_LOCK, members]);
    try {
      const found = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_part`;
        await c.query(`drop database if exists ${building}`);
        await c.query(`create database ${building} template ${base}`);
        const database = await openPostgres(databaseUrl(server, building), 2);
        try {
          await seedDemoData(database, { members });
        } finally {
          await database.close();
        }
        await c.query(`alter database ${building} rename to ${name}`);
      }
      return name;
    } finally {
      await c.query('select pg_advisory_unlock($1, $2)', [BUILD_LOCK, members]);
    }
  });
}

/** Drops the run's templates: `base` and every seeded one made from it. */
export async function dropPostgresTemplates(server: string, base: string): Promise<void> {
  await onServer(server, async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      `select datname from pg_database where datname = $1 or datname like $2`, [base, `${base}\\_m%`]);
    for (const { datname } of rows) await c.query(`drop database if exists ${datname} with (force)`);
  });
}
