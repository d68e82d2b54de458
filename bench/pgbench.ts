import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { CAPTURED_QUERIES_HEADER, decodeCapturedQueries, type CapturedQuery } from '../src/server/db/query-timing.ts';

/** A prepared statement's parameter types (pg_prepared_statements). */
type ParameterTypesRow = { types: string[] };

/**
 * The pgbench comparison (issue 23): the statements one warm request of a read route runs, as the
 * server captured them (CAPTURE_QUERIES), replayed with `pgbench -M prepared` on the same
 * database. Each parameter becomes a pgbench variable (`-D s1p1=value`, `:s1p1` in the script),
 * so every statement is prepared with parameters like the app's, typed as PostgreSQL typed the
 * app's (explicit casts to the types it inferred). pgbench takes no empty -D value and no NULL, so
 * a NULL or an empty string is an expression over a variable: `nullif(:v, :v)`, `left(:v, 0)`
 * (v = x). Written inline, PostgreSQL could plan pgbench's copy once for that constant where it
 * plans the app's anew on every request (the royalty month, bench/results.md 2026-11-27); as an
 * expression over a parameter it cannot see the value before it is bound, as with the app's. Only a
 * parameter whose type is unknown is written inline (a text NULL would not compare with its column).
 */

/** The pgbench program: PGBENCH names another (e.g. a newer PostgreSQL's), else the one on PATH. */
const PGBENCH = process.env.PGBENCH || 'pgbench';

/** How the bench's pgbench replay of one scenario went. */
export interface PgbenchResult {
  /** Statements one (warm) request runs (absent: not captured, e.g. on PGlite). */
  statements?: number;
  /** Transactions (one request's statements each) per second; absent when not measured. */
  tps?: number;
  /** Transactions pgbench counted as failed. */
  failed?: number;
  /** The replayed reads returned the row counts the app's did (false: they differ; see note). */
  rowsMatch?: boolean;
  /** Why it was not measured, or what to know about it. */
  note?: string;
}

const identStart = /[A-Za-z_\u0080-\uffff]/;
const identChar = /[A-Za-z0-9_$\u0080-\uffff]/;
/** A colon pgbench would take for the start of a variable (`:name`), wherever it stands. */
const variableLike = /(^|[^:]):[A-Za-z_\u0080-\uffff]/;

/** A single-quoted string's content as an E'' string's, with every colon written \x3a. */
function escapeStringWithoutColons(content: string, escapes: boolean): string {
  let out = '';
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (escapes && c === '\\') {
      const next = content[i + 1];
      out += next === ':' ? '\\x3a' : `\\${next ?? ''}`;
      i++;
    } else if (c === '\\') out += '\\\\';
    else if (c === ':') out += '\\x3a';
    else out += c;
  }
  return out;
}

/**
 * The statement `text` (PostgreSQL's `$n` parameters) as a pgbench SQL command: each `$n` outside
 * literals, identifiers and comments becomes `param(n)`; comments go; anything pgbench would take
 * for a variable (a colon before a letter: in a literal, an identifier, an array slice) is written
 * so that it is not, meaning the same to PostgreSQL; `semicolons` counts the statement ends.
 */
export function rewriteStatement(text: string, param: (n: number) => string): { sql: string; semicolons: number } {
  let out = '';
  let semicolons = 0;
  let i = 0;
  const prevIsIdent = () => i > 0 && identChar.test(text[i - 1]);
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      out += ' ';
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < text.length && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      out += ' ';
    } else if (c === "'") {
      // An E'' string takes backslash escapes; a standard one doubles its quotes only.
      const escapes = /[Ee]$/.test(out) && !(out.length > 1 && identChar.test(out[out.length - 2]));
      let j = i + 1;
      for (; j < text.length; j++) {
        if (escapes && text[j] === '\\') j++;
        else if (text[j] === "'") {
          if (text[j + 1] === "'") j++;
          else break;
        }
      }
      const content = text.slice(i + 1, j);
      if (variableLike.test(`'${content}`) && !/[Uu]&$/.test(out)) {
        out += `${escapes ? '' : 'E'}'${escapeStringWithoutColons(content, escapes)}'`;
      } else out += `'${content}'`;
      i = j + 1;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === '"') {
          if (text[j + 1] === '"') j++;
          else break;
        }
      }
      const content = text.slice(i + 1, j);
      out += variableLike.test(`"${content}`) ? `U&"${content.replaceAll('\\', '\\\\').replaceAll(':', '\\003A')}"` : `"${content}"`;
      i = j + 1;
    } else if (c === '$' && !prevIsIdent()) {
      const number = /^\$(\d+)/.exec(text.slice(i));
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i));
      if (number) {
        out += param(Number(number[1]));
        i += number[0].length;
      } else if (tag) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        const close = end < 0 ? text.length : end;
        const content = text.slice(i + tag[0].length, close);
        out += variableLike.test(`$${content}`)
          ? `E'${escapeStringWithoutColons(content.replaceAll("'", "''"), false)}'`
          : text.slice(i, close + tag[0].length);
        i = close + tag[0].length;
      } else {
        out += c;
        i++;
      }
    } else if (c === ':') {
      let j = i;
      while (text[j] === ':') j++;
      out += text.slice(i, j);
      // A lone colon before a name (an array slice a[1:n]) gets a space: pgbench skips a run of colons (casts).
      if (j - i === 1 && j < text.length && identStart.test(text[j])) out += ' ';
      i = j;
    } else {
      if (c === ';') semicolons++;
      out += c;
      i++;
    }
  }
  const sql = out.trim();
  const trailing = /;\s*$/.test(sql);
  return { sql: sql.replace(/;\s*$/, ''), semicolons: semicolons - (trailing ? 1 : 0) };
}

/** A statement that only reads (no FOR UPDATE/SHARE lock). */
export const isRead = (text: string) => /^\s*(select|with)\b/i.test(text) && !/\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i.test(text);
const opensTransaction = (text: string) => /^\s*(begin|start\s+transaction)\b/i.test(text);
const endsTransaction = (text: string) => /^\s*(commit|end|abort|rollback)\b(?!\s+(work\s+|transaction\s+)?to\b)/i.test(text);

export interface PgbenchScript {
  /** The script: one request's statements, in the order they ran. */
  script: string;
  /** The same statements, each read wrapped to count its rows into a variable printed by \shell echo. */
  verifyScript: string;
  /** `-D name=value` arguments, one pair per non-NULL parameter. */
  defines: string[];
  /** The row count each read should give (statement number → rows the app got). */
  expectedRows: Map<number, number>;
}

/**
 * A pgbench script replaying `captured` (the statements of one request). `types[i]` are the types
 * PostgreSQL inferred for statement i's parameters ($1…), e.g. from PREPARE (null: leave them
 * untyped, as node-postgres sends them). A transaction left open at the end is rolled back; a
 * COMMIT or ROLLBACK without its BEGIN is left out (pgbench would warn of no transaction).
 */
export function pgbenchScript(captured: CapturedQuery[], types: (string[] | null)[] = []): PgbenchScript {
  const commands: string[] = [];
  const verify: string[] = [];
  const defines: string[] = [];
  const expectedRows = new Map<number, number>();
  let open = false;
  captured.forEach((q, index) => {
    const s = index + 1;
    if (opensTransaction(q.text)) open = true;
    else if (endsTransaction(q.text)) {
      if (!open) return;
      open = false;
    }
    const paramTypes = types[index];
    const { sql, semicolons } = rewriteStatement(q.text, (n) => {
      const type = paramTypes?.[n - 1];
      const value = q.params[n - 1];
      if (value === undefined) throw new Error(`statement ${s} uses $${n} but ran with ${q.params.length} parameters`);
      const v = `:s${s}p${n}`;
      if (!type) return value === null ? 'NULL' : value === '' ? "''" : v;
      const ref = value === null ? `nullif(${v}, ${v})` : value === '' ? `left(${v}, 0)` : v;
      return `(${ref}::${type})`;
    });
    q.params.forEach((value, p) => {
      const known = Boolean(types[index]?.[p]);
      if (value !== null && value !== '') defines.push('-D', `s${s}p${p + 1}=${value}`);
      else if (known) defines.push('-D', `s${s}p${p + 1}=x`);
    });
    commands.push(`${sql};`);
    if (isRead(q.text) && semicolons === 0 && q.rows !== null) {
      verify.push(`select count(*) as n from (\n${sql}\n) as q${s} \\gset r${s}_`, `\\shell echo pgbench-rows ${s} :r${s}_n`);
      expectedRows.set(s, q.rows);
    } else verify.push(`${sql};`);
  });
  if (open) {
    commands.push('rollback;');
    verify.push('rollback;');
  }
  return { script: `${commands.join('\n')}\n`, verifyScript: `${verify.join('\n')}\n`, defines, expectedRows };
}

/** pgbench's version line, or null when it is not installed. */
export function pgbenchVersion(): string | null {
  try {
    return execFileSync(PGBENCH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/**
 * The statements of one request to `url`, as the server (CAPTURE_QUERIES=true) captured them: the
 * request is sent twice and the second, warm one is captured (per-process caches filled).
 * node:http with a large header limit: fetch() stops at 16 KB of response headers.
 */
export async function captureStatements(url: string, headers: Record<string, string>): Promise<CapturedQuery[]> {
  const get = () =>
    new Promise<{ status: number; captured: string | undefined }>((resolve, reject) => {
      const req = http.get(url, { headers: { ...headers, 'x-capture-queries': '1' }, maxHeaderSize: 64 * 1024 * 1024 }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, captured: res.headers[CAPTURED_QUERIES_HEADER] as string | undefined }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  await get();
  const warm = await get();
  if (warm.status !== 200) throw new Error(`${url} answered ${warm.status}`);
  if (!warm.captured) throw new Error(`${url} sent no ${CAPTURED_QUERIES_HEADER} header (is CAPTURE_QUERIES on?)`);
  return decodeCapturedQueries(warm.captured);
}

/** The types PostgreSQL infers for each statement's parameters (PREPARE, then pg_prepared_statements). */
export async function parameterTypes(databaseUrl: string, captured: CapturedQuery[]): Promise<(string[] | null)[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const out: (string[] | null)[] = [];
    for (const [i, q] of captured.entries()) {
      if (q.params.length === 0) {
        out.push(null);
        continue;
      }
      const name = `bench_param_types_${i}`;
      try {
        await client.query(`prepare ${name} as ${q.text}`);
        const { rows } = await client.query<ParameterTypesRow>('select parameter_types::text[] as types from pg_prepared_statements where name = $1', [name]);
        out.push(rows[0]?.types ?? null);
        await client.query(`deallocate ${name}`);
      } catch {
        out.push(null);
      }
    }
    return out;
  } finally {
    await client.end();
  }
}

const run = promisify(execFile);

/**
 * Writes the scripts into `dir`, checks them with one transaction each (the script itself, then
 * the row-counting copy against the app's row counts), then runs pgbench -M prepared with
 * `connections` clients on 2 threads for `seconds`.
 */
export async function preparePgbench(
  dir: string, name: string, databaseUrl: string, captured: CapturedQuery[],
): Promise<{ result: PgbenchResult; timed?: (connections: number, seconds: number) => Promise<PgbenchResult> }> {
  const statements = captured.length;
  if (statements === 0) return { result: { statements, note: 'no statements to replay' } };
  try {
    const built = pgbenchScript(captured, await parameterTypes(databaseUrl, captured));
    const file = path.join(dir, `${name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}.sql`);
    const verifyFile = file.replace(/\.sql$/, '.verify.sql');
    fs.writeFileSync(file, built.script);
    fs.writeFileSync(verifyFile, built.verifyScript);
    const args = (script: string, extra: string[]) => ['-n', '-M', 'prepared', '-f', script, ...built.defines, ...extra, databaseUrl];
    const dry = async (script: string) => {
      const out = await run(PGBENCH, args(script, ['-c', '1', '-t', '1']), { maxBuffer: 64 * 1024 * 1024 });
      const failed = Number(/number of failed transactions: (\d+)/.exec(out.stdout)?.[1] ?? 0);
      if (failed > 0) throw new Error(`the one-transaction dry run failed:\n${out.stderr}`);
      return out.stdout;
    };
    await dry(file);
    const counted = await dry(verifyFile);
    const got = new Map([...counted.matchAll(/^pgbench-rows (\d+) (\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])]));
    const differ = [...built.expectedRows].filter(([s, rows]) => got.get(s) !== rows).map(([s, rows]) => `statement ${s}: app ${rows}, pgbench ${got.get(s) ?? '?'}`);
    const rowsMatch = differ.length === 0;
    const note = rowsMatch ? undefined : `row counts differ (${differ.join('; ')})`;
    return {
      result: { statements, rowsMatch, note },
      timed: async (connections, seconds) => {
        try {
          const out = await run(PGBENCH, args(file, ['-c', String(connections), '-j', '2', '-T', String(seconds)]), { maxBuffer: 64 * 1024 * 1024 });
          const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out.stdout)?.[1]);
          const failed = Number(/number of failed transactions: (\d+)/.exec(out.stdout)?.[1] ?? 0);
          return { statements, tps: Number.isFinite(tps) ? tps : undefined, failed, rowsMatch, note };
        } catch (err) {
          return { statements, rowsMatch, note: `the timed pgbench run failed: ${failure(err)}` };
        }
      },
    };
  } catch (err) {
    return { result: { statements, note: `pgbench could not replay it: ${failure(err)}` } };
  }
}

/** The first lines of what went wrong (pgbench's own message when it ran). */
function failure(err: unknown): string {
  const e = err as Error & { stderr?: string };
  return (e.stderr || e.message).trim().split('\n').slice(0, 3).join(' ');
}
