import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Database } from './client.ts';

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
 * Drizzle's alike on a server, plain queries on PGlite: each connection parses and plans it once
 * instead of on every request (the session lookup alone is a four-table plan). Our texts are fixed
 * SQL with $n parameters, so there are a few hundred at most; past MAX_PREPARED distinct texts (a
 * bug that builds values into SQL) new ones simply run unprepared.
 */
const MAX_PREPARED = 1000;
const statementNames = new Map<string, string>();
export function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = `q${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}
