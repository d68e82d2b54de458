import { createHash } from 'node:crypto';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** One Drizzle type for both drivers: PGlite (embedded) and node-postgres (a server). */
export type Db = PgDatabase<PgQueryResultHKT>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PGlite only: the whole data directory, to clone a migrated template quickly in tests. */
  dump?: () => Promise<Blob | File>;
  /** Plain SQL with $1 parameters, for hot paths and set-based work. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Several statements in one round trip, no parameters (migrations, bulk loads). */
  exec(text: string): Promise<void>;
  /**
   * Applies the committed journal migrations, then the current trigger functions in
   * drizzle/functions/ when they changed (functions.ts). Run it inside `exclusive` when several
   * servers may start at once. `functionsFolder` replaces drizzle/functions (tests of re-applying).
   */
  migrate(options?: { functionsFolder?: string }): Promise<void>;
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
  /**
   * Calls `onNotice` with the payload of every NOTIFY on `channel` (a constant identifier) until the
   * returned function is called. On a server it holds a connection of its own, and `onLost` hears
   * when that connection fails (nothing more is heard on it: listen again).
   */
  listen(channel: string, onNotice: (payload: string) => void, onLost: (error: Error) => void): Promise<() => Promise<void>>;
  /** The request pool's use, for /metrics; null on PGlite (one connection in this process, no pool). */
  poolStats(): PoolStats | null;
  /**
   * How many auth-change notices this copy's pooled connections have heard so far: the
   * announce_auth_change trigger (drizzle/functions/auth_changes.sql) tells the connection that ran
   * it, in that statement's own answer, before the statement's result. Read before a caller's
   * statements and after them, it tells whether one of them may have changed what a session may do
   * (another caller's change in between counts too: that only makes a wait that was not needed).
   * Null on PGlite, which cannot tell: there a caller assumes every write may have.
   */
  authChangesHeard: (() => number) | null;
  close(): Promise<void>;
}

/** The notice announce_auth_change raises (auth_changes.sql). */
export const AUTH_CHANGED_NOTICE = 'backoffice: auth changed';

export interface PoolStats {
  /** Connections open, idle among them, requests queued for one, the pool's size. */
  total: number;
  idle: number;
  waiting: number;
  max: number;
  /** Since the pool opened: connections handed out, and the seconds callers waited for them together. */
  acquired: number;
  waitSeconds: number;
}

/**
 * How one database engine runs our SQL: Drizzle, plain parameterised queries (prepared once per
 * connection), transactions, statement batches, and migrations (the journal, then the trigger
 * functions). PGlite (pglite-driver.ts) and node-postgres (postgres-driver.ts) both give exactly
 * this; driver.test.ts holds them to the same behaviour. client.ts builds a `Database` on top of
 * one (start-up lock, health check, closing).
 */
export type Driver = Pick<Database, 'db' | 'query' | 'exec' | 'migrate'>;

/** The committed journal migrations (drizzle-kit), applied in order by both drivers. */
export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../../drizzle');

/**
 * Every statement with parameters runs as a named prepared statement — plain queries and
 * Drizzle's alike on a server, plain queries on PGlite: each connection parses it once instead of
 * on every request, and plans it once where PostgreSQL keeps its generic plan (the session lookup
 * alone is a four-table plan). A statement whose generic plan looks dearer than a plan for its
 * values is planned on every execution: every page with a bound limit and offset (rows.ts
 * pageBounds). Our texts are fixed SQL with $n parameters, so there are a few hundred at most;
 * past MAX_PREPARED distinct texts (a bug that builds values into SQL) new ones simply run
 * unprepared.
 */
export const MAX_PREPARED = 1000;
const statementNames = new Map<string, string>();
export function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = `q${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}
