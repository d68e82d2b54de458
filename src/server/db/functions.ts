import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The current definition of every trigger function and trigger lives in one file per rollup under
 * drizzle/functions/ (`create or replace`, so applying a file twice changes nothing). The journal
 * migrations that first created them are history; these files are what the database runs.
 * `migrate()` applies them after the journal migrations whenever any file, or the journal, differs
 * from what was last applied (a new journal migration may have replaced a function in place).
 */
export const FUNCTIONS_FOLDER = path.resolve(import.meta.dirname, '../../../drizzle/functions');
const JOURNAL = path.resolve(import.meta.dirname, '../../../drizzle/meta/_journal.json');

/** What `applyFunctions` needs of a connection: plain SQL, several statements in one round trip. */
export interface SqlSession {
  /** Runs `text` (one or more statements, no parameters); the rows of the last statement. */
  run(text: string): Promise<Record<string, unknown>[]>;
}

export interface FunctionFile {
  name: string;
  text: string;
}

/** The files in name order (the order they are applied in), and one digest of them and the journal. */
export function readFunctionFiles(folder = FUNCTIONS_FOLDER): { files: FunctionFile[]; digest: string } {
  const files = fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, text: fs.readFileSync(path.join(folder, name), 'utf8') }));
  const hash = createHash('sha256').update(fs.readFileSync(JOURNAL));
  for (const f of files) hash.update(`\0${f.name}\0${f.text}`);
  return { files, digest: hash.digest('hex') };
}

/**
 * Applies every file when the digest recorded in db_functions differs; answers whether it did.
 * Files and the new digest go in one multi-statement query, which PostgreSQL and PGlite run as one
 * transaction: a file that fails leaves the previous definitions and digest in place. Unchanged
 * files cost one read, so a start never locks the tables the triggers sit on without need.
 */
export async function applyFunctions(session: SqlSession, folder = FUNCTIONS_FOLDER): Promise<boolean> {
  const { files, digest } = readFunctionFiles(folder);
  const [applied] = await session.run('select digest from db_functions');
  if (applied?.digest === digest) return false;
  // The digest is hex: safe to write into the text.
  await session.run(
    [...files.map((f) => f.text), `delete from db_functions; insert into db_functions (digest) values ('${digest}');`].join('\n'),
  );
  return true;
}
