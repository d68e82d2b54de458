import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CapturedQuery } from '../src/server/db/query-timing.ts';
import { startFloor } from './floor.ts';
import { load } from './load.ts';
import { pgbenchSection, type Row } from './report.ts';

// The floor server runs on a PostgreSQL server, as pgbench does (PGlite has none to reach).
const serverUrl = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;

describe.skipIf(!serverUrl)('the floor server', () => {
  const reads: CapturedQuery[][] = [
    [{ text: 'select g as n, $2::text as label from generate_series(1, $1::int) g', params: ['3', "it's"], rows: 3 }],
    [
      { text: 'begin', params: [], rows: 0 },
      { text: 'select $1::int + 1 as next', params: ['41'], rows: 1 },
      { text: 'commit', params: [], rows: 0 },
    ],
    [{ text: 'select * from no_such_table', params: [], rows: null }],
  ];

  it('answers each read\'s rows from its statements, says why one failed, and bears the load generator', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'floor-test-'));
    const floor = await startFloor(serverUrl!, reads, dir);
    try {
      const first = await fetch(floor.url(0));
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ success: true, data: [[{ n: 1, label: "it's" }, { n: 2, label: "it's" }, { n: 3, label: "it's" }]] });
      expect(await (await fetch(floor.url(1))).json()).toEqual({ success: true, data: [[], [{ next: 42 }], []] });
      const broken = await fetch(floor.url(2));
      expect(broken.status).toBe(500);
      expect(((await broken.json()) as { message: string }).message).toMatch(/no_such_table/);
      expect((await fetch(floor.url(3))).status).toBe(404);
      // The read with a transaction, again and again on the pool's connections: none left inside one.
      const loaded = await load({ url: floor.url(1), connections: 4, seconds: 1 });
      expect(loaded.failures).toBe(0);
      expect(loaded.rps).toBeGreaterThan(0);
    } finally {
      await floor.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the comparison\'s table', () => {
  const read = (name: string, rps: number, tps: number, floorRps?: number): Row => ({
    name, rps, p50: 1, p95: 2, p99: 3, failures: 0, ratio: 0, p95Target: 25, generator: 'wrk',
    pgbench: { statements: 1, tps, rowsMatch: true },
    ...(floorRps === undefined ? {} : { floor: { rps: floorRps, failures: 0 } }),
  } as Row);

  it('puts the floor beside each read and says where the floor itself misses the target', () => {
    const lines = pgbenchSection({
      rows: [read('cheap read', 2_000, 10_000, 3_000), read('heavy read', 600, 1_000, 800), read('no floor', 500, 1_000)],
      pgbench: { version: 'pgbench 15' }, connections: 16, seconds: 5,
    });
    expect(lines).toContain('| cheap read | 1 | 10000 | 2000 | 0.20 | 3000 | 0.30 | 0.67 | **missed** (≥ 0.5) | the floor is below the target too |');
    expect(lines).toContain('| heavy read | 1 | 1000 | 600 | 0.60 | 800 | 0.80 | 0.75 | met (≥ 0.5) |  |');
    expect(lines).toContain('| no floor | 1 | 1000 | 500 | 0.50 | — | — | — | met (≥ 0.5) |  |');
  });

  it('compares the mean of a read\'s two HTTP runs, not its first alone', () => {
    const lines = pgbenchSection({
      rows: [{ ...read('drifting read', 450, 1_000, 800), comparedRps: 520 }],
      pgbench: { version: 'pgbench 15' }, connections: 16, seconds: 5,
    });
    expect(lines).toContain('| drifting read | 1 | 1000 | 520 | 0.52 | 800 | 0.80 | 0.65 | met (≥ 0.5) |  |');
  });
});
