import type { Database } from '../../db/client.ts';

export type TableChecksums = Map<string, string>;

let statement: string | undefined;

/**
 * A checksum of every table in the public schema: its row count and the sum of a hash of each
 * row's text. Order-independent, so it needs no sort, and any changed, added or removed row
 * changes it (short of a hash collision).
 */
export async function tableChecksums(database: Database): Promise<TableChecksums> {
  if (!statement) {
    const tables = await database.query<{ name: string }>(
      `select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    statement = tables
      // sessions.last_used_at is bookkeeping refreshed at most once a minute by any request (plugins/auth.ts), not a change the request made.
      .map((t) => `select '${t.name}' as name, count(*)::text || ':' || coalesce(sum(hashtext((to_jsonb(x) - 'last_used_at')::text)::bigint), 0)::text as sum from "${t.name}" x`)
      .join(' union all ');
  }
  const rows = await database.query<{ name: string; sum: string }>(statement);
  return new Map(rows.map((r) => [r.name, r.sum]));
}

/** The tables whose checksum differs between two snapshots. */
export function changedTables(before: TableChecksums, after: TableChecksums): string[] {
  return [...after.keys()].filter((name) => before.get(name) !== after.get(name));
}
