import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { PGLITE_PARSERS, pgliteDriver } from './pglite-driver.ts';
import { postgresDriver } from './postgres-driver.ts';
import { AUTH_CHANGED_NOTICE, type Database, type PoolStats } from './driver.ts';

export type { Database, Db, PoolStats } from './driver.ts';

/** The rows of `db.execute(sql…)`: both drivers answer `{ rows }`, typed apart by Drizzle. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Counts each hand-out of a pooled connection and how long its caller waited (queued behind busy
 * connections, or while a new one opened): pool.query and Drizzle's transactions both go through
 * the pool's connect. Also counts the auth-change notices the pool's connections hear
 * (Database.authChangesHeard).
 */
function watchPool(pool: pg.Pool): Pick<PoolStats, 'acquired' | 'waitSeconds'> & { authChanges: number } {
  const counts = { acquired: 0, waitSeconds: 0, authChanges: 0 };
  pool.on('connect', (client) => {
    client.on('notice', (notice) => {
      if (notice.message === AUTH_CHANGED_NOTICE) counts.authChanges += 1;
    });
  });
  type Callback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;
  const connect = pool.connect.bind(pool) as (callback?: Callback) => Promise<pg.PoolClient> | undefined;
  const note = (start: number) => {
    counts.acquired += 1;
    counts.waitSeconds += (performance.now() - start) / 1000;
  };
  (pool as unknown as { connect: (callback?: Callback) => unknown }).connect = (callback?: Callback) => {
    const start = performance.now();
    if (callback) {
      return connect((err, client, done) => {
        if (!err) note(start);
        callback(err, client, done);
      });
    }
    return connect()!.then((client) => {
      note(start);
      return client;
    });
  };
  return counts;
}

/** How long /api/health waits for a server's answer before it reports the database unavailable. */
const HEALTH_TIMEOUT_MS = 2000;
/** Any constant: the PostgreSQL advisory lock every server copy takes to migrate and bootstrap. */
const STARTUP_LOCK = 8009_2026;

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
  const watched = watchPool(pool);
  return {
    ...postgresDriver(pool, url),
    kind: 'postgres',
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
    async listen(channel, onNotice, onLost) {
      // TCP keepalive: a peer that vanished is noticed by the kernel too (the session cache's beat
      // also notices a listener that hears nothing).
      const client = new pg.Client({ connectionString: url, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
      let stopped = false;
      const fail = (error: Error) => {
        if (stopped) return;
        stopped = true;
        onLost(error);
      };
      client.on('notification', (n) => {
        if (n.channel === channel) onNotice(n.payload ?? '');
      });
      client.on('error', fail);
      client.on('end', () => fail(new Error('The listening connection ended')));
      try {
        await client.connect();
        await client.query(`listen "${channel}"`);
      } catch (error) {
        stopped = true;
        await client.end().catch(() => {});
        throw error;
      }
      return async () => {
        stopped = true;
        await client.end();
      };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize, acquired: watched.acquired, waitSeconds: watched.waitSeconds }),
    authChangesHeard: () => watched.authChanges,
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
      parsers: PGLITE_PARSERS,
      loadDataDir,
    });
  } catch (e) {
    releaseLock();
    throw e;
  }
  const driver = pgliteDriver(client);
  return {
    ...driver,
    kind: 'pglite',
    dump: () => client.dumpDataDir('none'),
    exclusive: (work) => work(),
    async ping() {
      if (client.closed) throw new Error('The embedded database is closed');
    },
    async listen(channel, onNotice) {
      // One process, one connection: nothing to lose but the database itself.
      const unlisten = await driver.listen(channel, onNotice);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    poolStats: () => null,
    authChangesHeard: null,
    async close() {
      await client.close();
      releaseLock();
    },
  };
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
