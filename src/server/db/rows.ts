import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_PAGE_LIMIT } from '../../contract/common.ts';

/**
 * Conversions every row mapper shares. Row mappers (database row -> wire shape) live in their
 * feature's repository, one per entity, and every query of that entity goes through it.
 */

/**
 * Computed rows many raw statements share (a row that is table columns is typed from the schema
 * where it is read: `Pick<typeof table.$inferSelect, …>`). int8 comes as a number from both drivers.
 */
/** `count(*)::int8 as n`. */
export type CountRow = { n: number };
/** `pg_try_advisory_xact_lock(…) as locked`. */
export type LockRow = { locked: boolean };
/** A day as text: `…::date::text as day`. */
export type DayRow = { day: string };
/** `exists (…) as yes`. */
export type ExistsRow = { yes: boolean };
/** A row of a left join: every column may be null. */
export type Nullable<T> = { [K in keyof T]: T[K] | null };

/** A timestamp column (Date from Drizzle and node-postgres, string from raw PGlite rows) as ISO 8601. */
export const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/**
 * A timestamptz column written by PostgreSQL as the text `iso` makes of it (ISO 8601 in UTC, the
 * milliseconds truncated as a Date keeps them): what a list's mapper passes through as it is.
 * Reading the column as a Date and writing it out again cost the server about 3 µs a timestamp
 * (node-postgres's date parser, then toISOString), 10–16 % of a page's server CPU (issue 23);
 * PostgreSQL writes it in about 1 µs, on a core of its own.
 */
export const isoText = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A date column as yyyy-mm-dd: raw rows give the text, node-postgres a Date at local midnight
 * (its calendar day is the local one). Selecting `day::text` avoids the question altogether.
 */
export const isoDate = (v: Date | string): string => {
  if (typeof v === 'string') return v.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}`;
};

/**
 * `$1`-style SQL text and its parameters as one Drizzle query, so that hand-built SQL (the member
 * list's dynamic filters) runs on a Drizzle transaction like any other query.
 */
export function paramSql(text: string, params: readonly unknown[]): SQL {
  const chunks = text.split(/\$(\d+)/);
  return sql.join(chunks.map((chunk, i) => (i % 2 === 1 ? sql`${params[Number(chunk) - 1]}` : sql.raw(chunk))));
}

/**
 * A page's `limit … offset …` and the values it binds, numbered from `$n`. Bound, a limit and an
 * offset leave PostgreSQL to guess that a tenth of the rows is wanted, which makes a prepared
 * statement's one (generic) plan look far dearer than a plan for the values at hand, so it plans
 * the statement anew on every execution (PGlite: 0.8 ms of planning in the reward month's 1.5 ms
 * page, bench/results.md). The first page at the screens' size, which nearly every visit asks
 * for, is written into the text instead: its statement keeps one plan, and it adds one text per
 * statement, not one per page. Only for statements whose best plan does not hang on their other
 * values: the users list filtered by level and rank does, and its one plan took 36 ms, not 2. And
 * only where other values stay bound: a statement without parameters is not prepared at all
 * (driver.ts), and the unfiltered users list written so on PGlite fell from 515 to 300 req/s.
 */
export function pageBounds(page: number, limit: number, n: number): { sql: string; params: number[] } {
  if (page === 1 && limit === DEFAULT_PAGE_LIMIT) return { sql: `limit ${DEFAULT_PAGE_LIMIT}`, params: [] };
  return { sql: `limit $${n} offset $${n + 1}`, params: [limit, (page - 1) * limit] };
}

/** A statement's rows as one json array column (`[]` when there are none). */
export const jsonRows = (text: string) => `(select coalesce(json_agg(x), '[]'::json) from (${text}) x)`;

/**
 * The `extra` column pageWith adds to a page's rows, as text: every row carries it, and as `json`
 * both drivers would parse it once per row (25 times a page; a month's day totals are kilobytes).
 */
type ExtraRow = { extra: string };

/**
 * A page and what goes with it (its totals) in one round trip (issue 23): `page(column)` is the
 * page's statement with `column` added to its select list, computed once and carried by every row.
 * `extra(params, alone)` builds the column's statement: inside the page's (`alone` false: `params`
 * are the page's, with its numbering, and more may be pushed), or on its own (`alone` true, `params`
 * empty), which is asked only when the page is empty and so carries nothing.
 */

export async function pageWith<Row, Extra>(
  database: { query<T>(text: string, params?: unknown[]): Promise<T[]> },
  page: { text: (column: string) => string; params: unknown[] },
  extra: (params: unknown[], alone: boolean) => string,
): Promise<{ rows: Row[]; extra: Extra }> {
  const params = [...page.params];
  const rows = await database.query<Row & ExtraRow>(page.text(`${jsonRows(extra(params, false))}::text as extra`), params);
  if (rows.length > 0) return { rows, extra: JSON.parse(rows[0].extra) as Extra };
  const own: unknown[] = [];
  const [row] = await database.query<ExtraRow>(`select ${jsonRows(extra(own, true))}::text as extra`, own);
  return { rows, extra: JSON.parse(row.extra) as Extra };
}
