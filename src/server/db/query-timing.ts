import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * Per-request database timing, for the benchmark and for operators (SERVER_TIMING=true): every
 * query's round trip is added up and sent back as a `Server-Timing` header. With
 * EXPLAIN_QUERIES=true, a request that carries `x-explain-queries: 1` also has each read run
 * under EXPLAIN ANALYZE first, adding the database's own execution time (that doubles the
 * database work: for measuring only).
 *
 * With CAPTURE_QUERIES=true (never in production: the server refuses to start), a request that
 * carries `x-capture-queries: 1` also gets back every statement it ran, with its parameter values
 * as sent to PostgreSQL, in an `x-captured-queries` header (base64url JSON of CapturedQuery[]):
 * the benchmark replays them with pgbench to compare the route with its own statements.
 */
export interface QueryTiming {
  queries: number;
  ms: number;
  execMs: number;
  explain: boolean;
  /** Set (to []) when the request asked for its statements: each is appended as it starts. */
  captured?: CapturedQuery[];
}

/** One statement a request ran: its text, its parameters in PostgreSQL's text form, its row count. */
export interface CapturedQuery {
  text: string;
  /** As node-postgres sends them (text; null is SQL NULL; bytea as \x hex). */
  params: (string | null)[];
  /** Rows it returned (null: it failed, or had not finished when the answer was sent). */
  rows: number | null;
}

export const CAPTURED_QUERIES_HEADER = 'x-captured-queries';

export const encodeCapturedQueries = (captured: CapturedQuery[]) => Buffer.from(JSON.stringify(captured)).toString('base64url');
export const decodeCapturedQueries = (header: string): CapturedQuery[] => JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));

// node-postgres's own conversion of a JS value into a parameter (not in its typed exports).
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(v: unknown): string | Buffer | null };

/** A parameter in the text form node-postgres puts on the wire. */
function wireValue(value: unknown): string | null {
  const prepared = prepareValue(value);
  return Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : prepared;
}

export const queryTiming = new AsyncLocalStorage<QueryTiming>();

let installed = false;

const isRead = (text: string) => /^\s*(select|with)\b/i.test(text) && !/\bfor\s+(update|share)\b/i.test(text);

function executionTime(rows: unknown[]): number {
  const plan = (rows[0] as Record<string, unknown>)?.['QUERY PLAN'];
  const parsed = typeof plan === 'string' ? JSON.parse(plan) : plan;
  return Number((parsed as { 'Execution Time'?: number }[])?.[0]?.['Execution Time'] ?? 0);
}

type AnyQuery = (this: unknown, ...args: unknown[]) => Promise<{ rows: unknown[] }>;

function wrap(original: AnyQuery, textOf: (args: unknown[]) => string | undefined): AnyQuery {
  return async function timed(this: unknown, ...args: unknown[]) {
    const timing = queryTiming.getStore();
    if (!timing || typeof args[args.length - 1] === 'function') return original.apply(this, args);
    const text = textOf(args);
    const [first, ...rest] = args;
    // A prepared (named) query hands its values in its config object (or, from Drizzle, as the
    // second argument next to it); a plain one passes them after the text.
    const values = typeof first === 'object' && first !== null ? ((first as { values?: unknown[] }).values ?? rest[0]) : rest[0];
    let capture: CapturedQuery | undefined;
    if (timing.captured && text !== undefined) {
      capture = { text, params: Array.isArray(values) ? values.map(wireValue) : [], rows: null };
      timing.captured.push(capture);
    }
    if (timing.explain && text && isRead(text)) {
      const explained = await original.apply(this, [`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values]);
      timing.execMs += executionTime(explained.rows);
    }
    const started = performance.now();
    try {
      const result = await original.apply(this, args);
      if (capture) capture.rows = Array.isArray(result?.rows) ? result.rows.length : null;
      return result;
    } finally {
      timing.queries += 1;
      timing.ms += performance.now() - started;
    }
  };
}

/** Patches both drivers once per process. */
export function installQueryTiming(): void {
  if (installed) return;
  installed = true;
  const pgText = (args: unknown[]) => {
    const first = args[0] as string | { text?: string };
    return typeof first === 'string' ? first : first?.text;
  };
  // Pool.query hands its client a callback (not counted twice); a checked-out client (transactions)
  // is called with promises.
  for (const proto of [pg.Pool.prototype, pg.Client.prototype] as unknown as { query: AnyQuery }[]) {
    proto.query = wrap(proto.query, pgText);
  }
  const liteProto = PGlite.prototype as unknown as { query: AnyQuery };
  liteProto.query = wrap(liteProto.query, (args) => args[0] as string);
}
