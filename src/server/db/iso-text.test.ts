import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from './client.ts';
import { iso, isoText } from './rows.ts';
import { emptyTestDatabase } from './test-database.ts';

/**
 * Issue 23: the lists have PostgreSQL write their times as ISO text (isoText) instead of reading a
 * Date and writing it out in the server. The text must be exactly what `iso` makes of the Date the
 * driver reads: UTC, milliseconds truncated (never rounded up into the next second, day or year),
 * whatever the session's time zone, and null for null.
 */
let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await emptyTestDatabase());
});
afterAll(() => drop());

type Pair = { at: Date | string | null; text: string | null };

describe('isoText', () => {
  it.each(['UTC', 'Asia/Kolkata', 'America/St_Johns'])('writes what iso makes of the driver\'s Date, for edge times and 2,000 random ones (session time zone %s)', async (zone) => {
    const edges = [
      '2026-11-26 23:59:59.999999+00', '1999-12-31 23:59:59.9995+00', '2026-01-01 00:00:00+00', '2024-02-29 12:00:00.5+00',
      '2026-11-26 10:00:00.0005+05:30', '2026-11-26 00:00:00.000001-08', '2000-03-01 05:30:00.123456+05:30',
    ];
    const rows = await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local time zone '${zone}'`));
      return rowsOf<Pair>(await tx.execute(sql`
        select t as at, ${sql.raw(isoText('t'))} as text from (
          select unnest(${`{${edges.map((e) => `"${e}"`).join(',')}}`}::timestamptz[]) as t
          union all select null
          union all select timestamptz '2000-01-01 00:00:00+00' + make_interval(secs => floor(random() * 1e15)::int8 / 1e6)
            from generate_series(1, 2000)) x`));
    });
    expect(rows).toHaveLength(edges.length + 2001);
    for (const r of rows) expect(r.text).toBe(r.at === null ? null : iso(r.at));
  });
});
