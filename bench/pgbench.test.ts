import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { CapturedQuery } from '../src/server/db/query-timing.ts';
import { pgbenchScript, pgbenchVersion, preparePgbench, rewriteStatement } from './pgbench.ts';

const ref = (n: number) => `:p${n}`;

describe('a statement as a pgbench SQL command', () => {
  it('turns $n into the parameter, $1 and $10 apart, never inside literals, identifiers or comments', () => {
    const { sql } = rewriteStatement(`select $1, $10, '$2', "$3", $$ $4 $$, $tag$ $5 $tag$ -- $6\n /* $7 /* nested */ */ from t where a$1 = $2`, ref);
    expect(sql).toBe(`select :p1, :p10, '$2', "$3", $$ $4 $$, $tag$ $5 $tag$  \n   from t where a$1 = :p2`);
  });

  it('writes colons pgbench would take for variables so that they are not, meaning the same', () => {
    expect(rewriteStatement(`select to_char(now(), 'HH24:MI'), E'a\\:b\\\\', 'it''s:x'`, ref).sql)
      .toBe(`select to_char(now(), E'HH24\\x3aMI'), E'a\\x3ab\\\\', E'it''s\\x3ax'`);
    expect(rewriteStatement(`select $$a:b$$, "x:y", (array[1,2])[1:n], $1::int, 10:30`, ref).sql)
      .toBe(`select E'a\\x3ab', U&"x\\003Ay", (array[1,2])[1: n], :p1::int, 10:30`);
  });

  it('counts statement ends, but not a trailing one', () => {
    expect(rewriteStatement('select 1;', ref)).toEqual({ sql: 'select 1', semicolons: 0 });
    expect(rewriteStatement("select ';'; select 2", ref).semicolons).toBe(1);
  });
});

describe('a request\'s statements as a pgbench script', () => {
  const captured: CapturedQuery[] = [
    { text: 'begin', params: [], rows: 0 },
    { text: 'select * from t where a = $1 and b = $2 and ($3::int is null or c = $3) and d <> $4', params: ["it's, a \"b\" c", '{"x": [1, 2]}', null, ''], rows: 4 },
    { text: 'commit', params: [], rows: 0 },
    { text: 'commit', params: [], rows: 0 },
    { text: 'select 1 from u where id = any($1)', params: ['{1,2,3}'], rows: 1 },
    { text: 'begin', params: [], rows: 0 },
  ];

  it('passes each value as a -D variable, typed as PostgreSQL typed the app\'s, NULL and \'\' as expressions over one', () => {
    const built = pgbenchScript(captured, [null, ['text', 'jsonb', 'integer', 'text'], null, null, ['bigint[]'], null]);
    expect(built.defines).toEqual(['-D', `s2p1=it's, a "b" c`, '-D', 's2p2={"x": [1, 2]}', '-D', 's2p3=x', '-D', 's2p4=x', '-D', 's5p1={1,2,3}']);
    expect(built.script).toBe([
      'begin;',
      // Not inline: PostgreSQL must not see the value before it is bound, as with the app's statement.
      'select * from t where a = (:s2p1::text) and b = (:s2p2::jsonb) and ((nullif(:s2p3, :s2p3)::integer)::int is null or c = (nullif(:s2p3, :s2p3)::integer)) and d <> (left(:s2p4, 0)::text);',
      'commit;',
      // the second COMMIT had no transaction to end; the BEGIN left open at the end is rolled back
      'select 1 from u where id = any((:s5p1::bigint[]));',
      'begin;',
      'rollback;',
      '',
    ].join('\n'));
    expect([...built.expectedRows]).toEqual([[2, 4], [5, 1]]);
    expect(built.verifyScript).toContain('select count(*) as n from (\nselect * from t where a = (:s2p1::text)');
    expect(built.verifyScript).toContain(') as q2 \\gset r2_\n\\shell echo pgbench-rows 2 :r2_n\n');
  });

  it('leaves parameters untyped without their types, NULL and \'\' then inline', () => {
    expect(pgbenchScript([captured[4]]).script).toBe('select 1 from u where id = any(:s1p1);\n');
    const untyped = pgbenchScript([captured[1]]);
    expect(untyped.script).toContain("and (NULL::int is null or c = NULL) and d <> '';");
    expect(untyped.defines).toEqual(['-D', `s1p1=it's, a "b" c`, '-D', 's1p2={"x": [1, 2]}']);
  });

  it('refuses a statement that uses a parameter it was not given', () => {
    expect(() => pgbenchScript([{ text: 'select $2', params: ['1'], rows: 1 }])).toThrow(/uses \$2 but ran with 1 parameters/);
  });
});

// On a real server: pgbench replays the statements with those values and gets the rows the app got.
const serverUrl = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
describe.skipIf(!serverUrl || !pgbenchVersion())('pgbench on PostgreSQL', () => {
  const statements: Omit<CapturedQuery, 'rows'>[] = [
    { text: 'begin', params: [] },
    {
      text: `select v.* from (values ('it''s, a "b" c', 1, '{"x": [1, 2]}'::jsonb, 'HH24:MI'), ('plain', 2, '{}', 'x')) v(s, n, j, f)
              where (s = $1 or n = any($2)) and ($3::int is null or n = $3) and j @> $4 and to_char(now(), f) <> $5`,
      params: [`it's, a "b" c`, '{2,3}', null, '{}', ''],
    },
    { text: 'select g from generate_series(1, $1) g where g % 2 = 0 limit $2', params: ['100', '7'] },
    { text: 'commit', params: [] },
  ];

  it('replays them with one transaction, the same row counts, then for a while', async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    const captured: CapturedQuery[] = [];
    try {
      for (const q of statements) captured.push({ ...q, rows: (await client.query(q.text, q.params)).rows.length });
    } finally {
      await client.end();
    }
    expect(captured.map((q) => q.rows)).toEqual([0, 2, 7, 0]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbench-test-'));
    try {
      const replay = await preparePgbench(dir, 'tricky values', serverUrl!, captured);
      expect(replay.result).toEqual({ statements: 4, rowsMatch: true, note: undefined });
      const timed = await replay.timed!(2, 1);
      expect(timed.tps).toBeGreaterThan(0);
      expect(timed.failed).toBe(0);
      // A count that differs from the app's is reported, not passed over.
      const wrong = await preparePgbench(dir, 'wrong count', serverUrl!, captured.map((q, i) => (i === 2 ? { ...q, rows: 8 } : q)));
      expect(wrong.result.rowsMatch).toBe(false);
      expect(wrong.result.note).toBe('row counts differ (statement 3: app 8, pgbench 7)');
      // A statement pgbench cannot run is reported, with PostgreSQL's reason.
      const broken = await preparePgbench(dir, 'broken', serverUrl!, [{ text: 'select * from no_such_table', params: [], rows: 0 }]);
      expect(broken.timed).toBeUndefined();
      expect(broken.result.note).toMatch(/no_such_table/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
