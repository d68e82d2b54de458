import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Database } from './client.ts';
import { MAX_PREPARED } from './driver.ts';
import { emptyTestDatabase } from './test-database.ts';

// The same behaviour from both drivers (pglite-driver.ts, postgres-driver.ts): this file runs on
// PGlite in the server project and on PostgreSQL in server-postgres. One pooled connection on
// PostgreSQL, so that a statement prepared by one query is visible to the next.
let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await emptyTestDatabase(1));
  await database.exec(`create table driver_check (id bigint primary key, name text not null unique, day date, at timestamptz)`);
});
afterAll(() => drop());

const names = async () => (await database.query<{ name: string }>('select name from driver_check order by id')).map((r) => r.name);

describe('database drivers', () => {
  it('binds parameters by the type the statement gives them', async () => {
    const [row] = await database.query<Record<string, unknown>>(
      `select $1::int + 1 as n, $2 = 'x' as same, $3::bool as flag, $4::int8[] as ids, $5::text is null as missing, $6::numeric * 2 as twice`,
      [41, 'x', true, [1, 2], null, '1.25'],
    );
    expect(row).toEqual({ n: 42, same: true, flag: true, ids: [1, 2], missing: true, twice: '2.50' });
  });

  it('reads bigint as a number, date as its yyyy-mm-dd text, timestamptz as a Date', async () => {
    await database.query(`insert into driver_check (id, name, day, at) values ($1, $2, $3, $4)`, [
      9_007_199_254_740_991, 'big', '2026-03-01', new Date('2026-03-01T18:30:00Z'),
    ]);
    const [row] = await database.query<Record<string, unknown>>(
      `select id, day, at, count(*) over () as n from driver_check where id = $1`,
      [9_007_199_254_740_991],
    );
    expect(row).toEqual({ id: 9_007_199_254_740_991, day: '2026-03-01', at: new Date('2026-03-01T18:30:00Z'), n: 1 });
    const [viaDrizzle] = rowsOf<Record<string, unknown>>(
      await database.db.execute(sql`select id, day, at from driver_check where id = ${9_007_199_254_740_991}`),
    );
    // Drizzle reads date and time as text (its column types map them) on both.
    expect(viaDrizzle).toEqual({ id: 9_007_199_254_740_991, day: '2026-03-01', at: expect.stringMatching(/^2026-03-01 18:30:00\+00(:00)?$/) });
    await database.query('delete from driver_check');
  });

  it('prepares a parameterised query once and reuses it with other values', async () => {
    const text = 'select $1::int * 2 as doubled';
    for (const n of [1, 2, 3]) expect(await database.query(text, [n])).toEqual([{ doubled: n * 2 }]);
    const [prepared] = await database.query<{ n: number }>(`select count(*) as n from pg_prepared_statements where statement = $1`, [text]);
    expect(prepared.n).toBe(1);
  });

  it('rolls a transaction back when its work throws, and passes the error on', async () => {
    const failing = new Error('changed my mind');
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into driver_check (id, name) values (1, 'drizzle')`);
        throw failing;
      }),
    ).rejects.toBe(failing);
    expect(await names()).toEqual([]);

    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into driver_check (id, name) values (3, 'kept')`);
    });
    expect(await names()).toEqual(['kept']);
  });

  it('errors carry their SQLSTATE code, on every path (Drizzle keeps it on the cause)', async () => {
    await expect(database.query('select 1 / 0')).rejects.toMatchObject({ code: '22012' });
    await expect(database.query('select $1::int / 0', [1])).rejects.toMatchObject({ code: '22012' });
    await expect(database.query(`insert into driver_check (id, name) values ($1, $2)`, [4, 'kept'])).rejects.toMatchObject({
      code: '23505',
    });
    await expect(database.exec('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
    const viaDrizzle = await database.db.execute(sql`insert into driver_check (id, name) values (5, 'kept')`).catch((e: unknown) => e);
    expect((viaDrizzle as { cause?: { code?: string } }).cause?.code).toBe('23505');
    // The connection is usable after each error, prepared statements included.
    expect(await database.query('select $1::int as n', [7])).toEqual([{ n: 7 }]);
    expect(await names()).toEqual(['kept']);
  });

  it('reads a prepared statement\'s answer of many types, nulls and unicode, large or empty, as a plain query reads it', async () => {
    const text = `select g as id, g::int2 as small, g * 1.5 as half, (g % 2 = 0) as even, case when g % 3 = 0 then null else 'नमस्ते ' || g end as name,
      json_build_object('g', g) as doc, jsonb_build_array(g, 'x') as arr, array[g, g + 1]::int8[] as ids, ('2026-01-01'::date + g) as day,
      repeat('x', $2::int) as pad from generate_series(1, $1::int) g`;
    const unprepared = text.replace('$1::int', '3').replace('$2::int', '0');
    const rows = await database.query<Record<string, unknown>>(text, [3, 0]);
    expect(rows).toEqual(await database.query(unprepared));
    expect(rows[0]).toEqual({
      id: 1, small: 1, half: '1.5', even: false, name: 'नमस्ते 1', doc: { g: 1 }, arr: [1, 'x'], ids: [1, 2], day: '2026-01-02', pad: '',
    });
    expect(rows[2].name).toBeNull();
    // Thousands of rows of a kilobyte: the answer comes in many pieces.
    const large = await database.query<{ id: number; pad: string }>(text, [5000, 1000]);
    expect(large).toHaveLength(5000);
    expect(large.at(-1)).toMatchObject({ id: 5000, pad: 'x'.repeat(1000), name: 'नमस्ते 5000' });
    expect(await database.query(text, [0, 0])).toEqual([]);
  });

  it('hands a notification sent by a prepared statement to the channel\'s listener', async () => {
    const heard: string[] = [];
    const unlisten = await database.listen('driver_check', (payload) => heard.push(payload), () => {});
    try {
      const [row] = await database.query<{ sent: number }>(`select 1 as sent from (select pg_notify($1, $2)) n`, ['driver_check', 'नमस्ते']);
      expect(row).toEqual({ sent: 1 });
      await expect.poll(() => heard, { timeout: 5_000 }).toEqual(['नमस्ते']);
    } finally {
      await unlisten();
    }
  });

  // Last: it fills the process's prepared statement names.
  it('runs texts past the prepared statement limit unprepared, and answers them', async () => {
    for (let i = 0; i <= MAX_PREPARED; i++) expect(await database.query(`select $1::int + ${i} as n`, [1])).toEqual([{ n: i + 1 }]);
    expect(await database.query('select $1::int * 3 as n', [2])).toEqual([{ n: 6 }]);
  }, 60_000);
});
