import fs from 'node:fs';
import path from 'node:path';
import type { LoadResult } from './load.ts';

export interface Row extends LoadResult {
  name: string;
  ratio: number;
  p95Target: number | null;
  minRps?: number;
  /** The database's own execution time (EXPLAIN ANALYZE), median of 10. */
  dbMs?: number;
  /** The database round trips of one request, median of 10. */
  dbRoundTripMs?: number;
}

export interface Report {
  smoke: boolean;
  /** A tuning run (an earlier database, or some scenarios only): results-dev.*, not committed. */
  dev: boolean;
  database: string;
  members: number;
  ledgerRows: number;
  seedSeconds: number;
  size: string;
  connections: number;
  seconds: number;
  rows: Row[];
  panel: { firstRowsMs: number; nextPageMs: number; levelFilterMs: number } | null;
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits));

function verdict(r: Row): string {
  if (r.p95Target === null) return '';
  const ok = r.p95 <= r.p95Target && (r.minRps === undefined || r.rps >= r.minRps) && r.failures === 0;
  return `${ok ? 'met' : '**missed**'} (p95 ≤ ${r.p95Target} ms${r.minRps ? `, ≥ ${r.minRps} req/s` : ''})`;
}

/** bench/results.md and results.json (smoke runs: results-smoke.*, not committed). */
export function writeReport(report: Report): string {
  const base = path.join(import.meta.dirname, report.smoke ? 'results-smoke' : report.dev ? 'results-dev' : 'results');
  const lines = [
    `# Benchmark results${report.smoke ? ' (smoke)' : ''}`,
    '',
    `${new Date().toISOString().slice(0, 10)} — ${report.database}, ${report.members.toLocaleString('en-IN')} members, ` +
      `${report.ledgerRows.toLocaleString('en-IN')} ledger rows (${report.size}), seeded in ${report.seedSeconds.toFixed(0)} s. ` +
      `autocannon, ${report.connections} connections, ${report.seconds} s per scenario after a warm-up, server and load ` +
      'generator on one 2-core machine.',
    '',
    '| scenario | req/s | p50 ms | p95 ms | p99 ms | ratio to ceiling | DB ms (EXPLAIN) | HTTP p50 ÷ DB | failed | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...report.rows.map(
      (r) =>
        `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p95} | ${r.p99} | ${(r.ratio * 100).toFixed(0)} % | ${fmt(r.dbMs, 2)} | ` +
        `${r.dbMs ? fmt(r.p50 / r.dbMs) : '—'} | ${r.failures} | ${verdict(r)} |`,
    ),
    '',
    report.panel
      ? `Users page in Chromium (target: first rows within 1 s): first rows ${report.panel.firstRowsMs} ms after navigation, ` +
        `next page ${report.panel.nextPageMs} ms, level filter ${report.panel.levelFilterMs} ms.`
      : 'Users page in Chromium: not measured (no Chromium).',
    '',
  ];
  fs.writeFileSync(`${base}.md`, lines.join('\n'));
  fs.writeFileSync(`${base}.json`, `${JSON.stringify({ date: new Date().toISOString(), ...report }, null, 2)}\n`);
  return `${base}.md`;
}
