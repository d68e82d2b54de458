import type { Database } from '../../db/client.ts';

export type TableChecksums = Map<string, string>;

/**
 * Checksums of every table in the public schema: its row count and the sum of a hash of each
 * row's text. Order-independent, so it needs no sort, and any changed, added or removed row
 * changes it (short of a hash collision).
 *
 * Checksumming all tables after each of 10,000 requests was most of the fuzz test's time, yet a
 * request writes to a few tables at most. So a statement-level trigger on every table notes the
 * tables a statement wrote to (committed work only: a rolled-back write leaves no note), and
 * `checksums()` recomputes only those; the others cannot have changed. The answer is the same
 * whole-database snapshot as before, at a fraction of the cost.
 */
export interface TableWatch {
  checksums(): Promise<TableChecksums>;
}

const rowSum = (table: string) =>
  // sessions.last_used_at is bookkeeping refreshed at most once a minute by any request (plugins/auth.ts), not a change the request made.
  `select '${table}' as name, count(*)::text || ':' || coalesce(sum(hashtext((to_jsonb(x) - 'last_used_at')::text)::bigint), 0)::text as sum from "${table}" x`;

const publicTables = async (database: Database) =>
  (
    await database.query<{ name: string }>(
      `select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )
  ).map((t) => t.name);

const checksumsOf = async (database: Database, tables: readonly string[]): Promise<TableChecksums> =>
  new Map((await database.query<{ name: string; sum: string }>(tables.map(rowSum).join(' union all '))).map((r) => [r.name, r.sum]));

/** Checksums of every table, computed afresh. */
export async function tableChecksums(database: Database): Promise<TableChecksums> {
  return checksumsOf(database, await publicTables(database));
}

/** Installs the write notes (in a schema of their own, so the public schema is unchanged) and takes the first snapshot. */
export async function watchTables(database: Database): Promise<TableWatch> {
  const tables = await publicTables(database);
  await database.exec(`
    create schema fuzz_watch;
    create table fuzz_watch.written (name text not null);
    create function fuzz_watch.note() returns trigger language plpgsql as $$
      begin insert into fuzz_watch.written values (TG_TABLE_NAME); return null; end $$;
    ${tables.map((t) => `create trigger zz_fuzz_watch after insert or update or delete or truncate on "${t}" for each statement execute function fuzz_watch.note();`).join('\n')}
  `);
  const current = await checksumsOf(database, tables);
  return {
    async checksums() {
      const written = await database.query<{ name: string }>('delete from fuzz_watch.written returning name');
      const names = [...new Set(written.map((w) => w.name))];
      if (names.length) for (const [name, sum] of await checksumsOf(database, names)) current.set(name, sum);
      return new Map(current);
    },
  };
}

/** The tables whose checksum differs between two snapshots. */
export function changedTables(before: TableChecksums, after: TableChecksums): string[] {
  return [...after.keys()].filter((name) => before.get(name) !== after.get(name));
}
