import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, parse as pgliteResults, protocol, type Results } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { queryTiming } from './query-timing.ts';

/** One Drizzle type for both drivers: PGlite (embedded) and node-postgres (a server). */
export type Db = PgDatabase<PgQueryResultHKT>;

/** The rows of `db.execute(sql…)`: both drivers answer `{ rows }`, typed apart by Drizzle. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PGlite only: the whole data directory, to clone a migrated template quickly in tests. */
  dump?: () => Promise<Blob | File>;
  /** Plain SQL with $1 parameters, for hot paths and set-based work. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Plain SQL queries in one transaction (committed when `work` resolves, rolled back if it throws). */
  transaction<T>(work: (query: Database['query']) => Promise<T>): Promise<T>;
  /** Several statements in one round trip, no parameters (migrations, bulk loads). */
  exec(text: string): Promise<void>;
  /** Applies the committed migrations. Run it inside `exclusive` when several servers may start at once. */
  migrate(): Promise<void>;
  /**
   * Runs `work` while holding the start-up lock: on PostgreSQL a session advisory lock, so that of
   * several server copies starting at once one migrates and bootstraps while the others wait, then
   * find nothing left to do. PGlite has one process by construction.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /**
   * For /api/health: resolves when the database answers, without queueing behind request work.
   * On a server it has a connection of its own; PGlite is one connection in this process, so
   * asking it anything would wait for every query queued before, and it answers by being open.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../drizzle');
/** How long /api/health waits for a server's answer before it reports the database unavailable. */
const HEALTH_TIMEOUT_MS = 2000;
/** Any constant: the PostgreSQL advisory lock every server copy takes to migrate and bootstrap. */
const STARTUP_LOCK = 8009_2026;

// node-postgres returns bigint (int8) as string: our ids and paise fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));
// `date` columns stay 'yyyy-mm-dd' strings, never shifted by the process time zone.
pg.types.setTypeParser(1082, (v) => v);

/**
 * Every statement with parameters runs as a named prepared statement — plain queries and
 * Drizzle's alike (the money transactions): each connection parses and plans it once instead of
 * on every request (the session lookup alone is a four-table plan). Our texts are fixed SQL with
 * $n parameters, so there are a few hundred at most; past MAX_PREPARED distinct texts (a bug that
 * builds values into SQL) new ones simply run unprepared.
 */
const MAX_PREPARED = 1000;
const statementNames = new Map<string, string>();
function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = `q${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];

/** Names a parameterised query (text + values, or a config object without a name). */
function prepared([config, values, callback]: QueryArgs): QueryArgs {
  if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
    const name = statementName(config);
    return name ? [{ name, text: config, values }, undefined, callback] : [config, values, callback];
  }
  if (config && typeof config === 'object') {
    const c = config as { name?: string; text?: string; values?: unknown[] };
    if (!c.name && typeof c.text === 'string' && (c.values?.length ?? 0) > 0) {
      const name = statementName(c.text);
      if (name) return [{ ...c, name }, values, callback];
    }
  }
  return [config, values, callback];
}

/**
 * `statementTimeoutMs` (0 = none) is the statement_timeout of the pooled connections that serve
 * requests: a query past it is cancelled and the request answered 503, instead of holding a
 * connection for minutes. Migrations run on a connection of their own without it, the start-up
 * lock waits without it, and seeding lifts it inside its transaction.
 */
export async function openPostgres(url: string, poolSize = 10, statementTimeoutMs = 0): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  pool.on('error', () => {
    /* an idle client lost its connection; the pool replaces it */
  });
  pool.on('connect', (client) => {
    const own = client as unknown as { query: (...args: unknown[]) => unknown };
    // The prototype's query is looked up per call: the timing plugin may wrap it later.
    own.query = (...args: unknown[]) => (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(client, prepared(args as QueryArgs));
  });
  const db = drizzlePg(pool) as unknown as Db;
  // The health check's own connection: a pool of one, never shared with request work, and quick
  // to give up, so a load balancer hears "unavailable" rather than nothing.
  const healthPool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: HEALTH_TIMEOUT_MS,
    statement_timeout: HEALTH_TIMEOUT_MS,
    query_timeout: HEALTH_TIMEOUT_MS,
  });
  healthPool.on('error', () => {
    /* the health connection dropped; the next check opens another */
  });
  return {
    db,
    kind: 'postgres',
    async query(text, params) {
      return (await pool.query(text, params as unknown[])).rows;
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(async (text, params) => (await client.query(text, params as unknown[])).rows);
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async exec(text) {
      await pool.query(text);
    },
    async migrate() {
      // A migration may build an index over millions of rows: not under the requests' timeout.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await migratePg(drizzlePg(client) as never, { migrationsFolder: MIGRATIONS });
      } finally {
        await client.end();
      }
    },
    async exclusive(work) {
      const client = await pool.connect();
      try {
        // Another copy may hold the lock through a long migration: wait for it, however long.
        await client.query('set statement_timeout = 0');
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
        return await work();
      } finally {
        await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {});
        await client.query('reset statement_timeout').catch(() => {});
        client.release();
      }
    },
    async ping() {
      await healthPool.query('select 1');
    },
    async close() {
      await Promise.all([pool.end(), healthPool.end()]);
    },
  };
}

/**
 * The embedded database: one PGlite in this process. Two processes must never open one
 * directory, so a lock file holding our pid guards it.
 */
export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<Database> {
  let releaseLock = () => {};
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    releaseLock = takeDirLock(dataDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create({
      dataDir: dataDir ? path.join(dataDir, 'pg') : undefined,
      extensions: { pg_trgm },
      loadDataDir,
    });
  } catch (e) {
    releaseLock();
    throw e;
  }
  const db = drizzlePglite(client) as unknown as Db;
  const preparedQuery = pglitePreparedQueries(client);
  return {
    db,
    kind: 'pglite',
    dump: () => client.dumpDataDir('none'),
    async query(text, params) {
      // SERVER_TIMING measures (and explains) through PGlite's own query(), which it wraps.
      if (queryTiming.getStore() || !params?.length) return (await client.query(text, params as unknown[])).rows as never[];
      return preparedQuery(text, params) as Promise<never[]>;
    },
    transaction: (work) =>
      client.transaction((tx) => work(async (text, params) => (await tx.query(text, params as unknown[])).rows as never[])),
    async exec(text) {
      await client.exec(text);
    },
    async migrate() {
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS });
    },
    exclusive: (work) => work(),
    async ping() {
      if (client.closed) throw new Error('The embedded database is closed');
    },
    async close() {
      await client.close();
      releaseLock();
    },
  };
}

/**
 * PGlite's query() parses and plans its statement every time (an unnamed statement, four protocol
 * round trips into the WebAssembly). Like the named statements on a server, this prepares each
 * parameterised text once per database (Parse + Describe) and then only binds and executes it,
 * in one protocol message, under PGlite's own locks (so never inside another caller's transaction).
 */
function pglitePreparedQueries(client: PGlite) {
  interface Statement {
    name: string;
    paramTypes: number[];
    /** The columns, put in front of each execution's rows (an execution sends no RowDescription). */
    rowDescription: unknown;
  }
  const statements = new Map<string, Statement>();
  const { serialize } = protocol;
  const concat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const run = async (message: Uint8Array) => (await client.execProtocol(message, { syncToFs: false })).messages;

  return (text: string, params: unknown[]) =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        let statement = statements.get(text);
        if (!statement) {
          const name = statementName(text);
          if (!name) return (await client.query(text, params)).rows;
          const described = await run(concat(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()));
          const parameters = described.find((m) => m.name === 'parameterDescription') as unknown as { dataTypeIDs: number[] } | undefined;
          statement = {
            name,
            paramTypes: parameters?.dataTypeIDs ?? [],
            rowDescription: described.find((m) => m.name === 'rowDescription') ?? null,
          };
          statements.set(text, statement);
        }
        const values = params.map((v, i) => {
          if (v === null || v === undefined) return null;
          const serializer = client.serializers[statement.paramTypes[i]];
          return serializer ? serializer(v) : String(v);
        });
        const messages = await run(concat(serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()));
        await client.syncToFs();
        const [result] = pgliteResults.parseResults(
          (statement.rowDescription ? [statement.rowDescription, ...messages] : messages) as never,
          client.parsers,
        ) as Results[];
        return result?.rows ?? [];
      }),
    );
}

function takeDirLock(dataDir: string): () => void {
  const lockFile = path.join(dataDir, 'server.lock');
  const mine = String(process.pid);
  try {
    fs.writeFileSync(lockFile, mine, { flag: 'wx' });
  } catch {
    const holder = Number(fs.readFileSync(lockFile, 'utf8').trim());
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `The embedded database in ${dataDir} is already open in process ${holder}. ` +
          'Stop that server first, or set DATABASE_URL to share a PostgreSQL server between processes.',
      );
    }
    fs.writeFileSync(lockFile, mine); // a stale lock left by a process that died
  }
  return () => {
    try {
      if (fs.readFileSync(lockFile, 'utf8').trim() === mine) fs.unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
