import fs from 'node:fs';
import path from 'node:path';
import type { ExportTiming, HealthUnderLoad } from './heavy.ts';
import type { LoadResult } from './load.ts';
import type { PgbenchResult } from './pgbench.ts';

export interface Row extends LoadResult {
  name: string;
  ratio: number;
  p95Target: number | null;
  minRps?: number;
  /** The database's own execution time (EXPLAIN ANALYZE), median of 10. */
  dbMs?: number;
  /** The database round trips of one request, median of 10. */
  dbRoundTripMs?: number;
  /** A read's own statements replayed with pgbench beside its HTTP load (issue 23): the mean of two runs. */
  pgbench?: PgbenchResult;
  /** The same statements served by the floor server (bench/floor-server.ts) under the same load: the mean of two runs. */
  floor?: { rps: number; failures: number };
  /** A compared read's req/s over HTTP, the mean of its own load and the one after pgbench and the floor. */
  comparedRps?: number;
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
  lighthouse?: { performance: number; accessibility: number; metrics: Record<string, number> } | null;
  /** Money invariant violations found after the run (null: not checked). */
  invariants?: string[] | null;
  /** Whole CSV exports streamed to their end (issue 13: 1,000,000 wallet rows within 30 s). */
  exports?: ExportTiming[];
  /** /api/health latency while heavy requests run (issue 13: within 100 ms). */
  health?: HealthUnderLoad | null;
  /** The pgbench comparison of the reads: pgbench's version, or why there is none (PGlite, not installed). */
  pgbench?: { version?: string; skipped?: string };
}

/** HTTP ÷ pgbench of a read at least this (issue 23). */
export const PGBENCH_RATIO_TARGET = 0.5;

/**
 * Each read against pgbench on the statements one warm request of it runs (issue 23); printed by
 * the bench too. On PGlite, or without pgbench, every figure is "—" and the reason is given.
 */
export function pgbenchSection(report: Pick<Report, 'rows' | 'pgbench' | 'connections' | 'seconds'>): string[] {
  const reads = report.rows.filter((r) => r.pgbench);
  if (reads.length === 0) return [];
  const skipped = report.pgbench?.skipped;
  return [
    '## Reads against pgbench on their own statements',
    '',
    skipped
      ? `Not compared: ${skipped}.`
      : `The statements one warm request of each read runs (captured by a server started with CAPTURE_QUERIES), replayed with ` +
        `\`pgbench -M prepared -c ${report.connections} -j 2 -T ${report.seconds}\` (${report.pgbench?.version ?? 'pgbench'}; one transaction = one ` +
        `request's statements) on the same database beside the route's HTTP load with ${report.connections} connections: ` +
        `HTTP, pgbench, the floor, the floor, pgbench, HTTP, each figure the mean of its two runs (a machine that drifts ` +
        `weighs on all three alike). ` +
        `Target: HTTP ≥ ${PGBENCH_RATIO_TARGET} of pgbench. **The floor**: the same statements served under the same load by ` +
        `bench/floor-server.ts, node:http and node-postgres (the app's pool size) with nothing else (no framework, session, ` +
        `schema or serializer): what a Node server reading them gets on this machine at the least cost. Where the floor ` +
        `itself is below the target, no Node server reaches it here.`,
    '',
    '| scenario | statements per request | pgbench (tps) | HTTP (req/s) | HTTP ÷ pgbench | the floor (req/s) | floor ÷ pgbench | HTTP ÷ floor | target | notes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...reads.map((r) => {
      const p = r.pgbench;
      const http = r.comparedRps ?? r.rps;
      const ratio = p?.tps ? http / p.tps : undefined;
      const floorRatio = p?.tps && r.floor ? r.floor.rps / p.tps : undefined;
      const ofFloor = r.floor?.rps ? http / r.floor.rps : undefined;
      const notes = [
        p?.note,
        p?.failed ? `${p.failed} pgbench transactions failed` : undefined,
        r.floor?.failures ? `${r.floor.failures} floor requests failed` : undefined,
        ratio !== undefined && ratio < PGBENCH_RATIO_TARGET && floorRatio !== undefined && floorRatio < PGBENCH_RATIO_TARGET
          ? 'the floor is below the target too'
          : undefined,
      ].filter(Boolean).join('; ');
      return `| ${r.name} | ${p?.statements ?? '—'} | ${p?.tps === undefined ? '—' : p.tps.toFixed(0)} | ${http.toFixed(0)} | ` +
        `${fmt(ratio, 2)} | ${r.floor ? r.floor.rps.toFixed(0) : '—'} | ${fmt(floorRatio, 2)} | ${fmt(ofFloor, 2)} | ` +
        `${ratio === undefined ? '—' : `${ratio >= PGBENCH_RATIO_TARGET ? 'met' : '**missed**'} (≥ ${PGBENCH_RATIO_TARGET})`} | ${notes} |`;
    }),
    '',
  ];
}

function boundedWork(report: Report): string[] {
  const lines: string[] = [];
  if (report.exports?.length) {
    lines.push(
      '| export | rows | MB | seconds | rows/s | 1,000,000 rows in | target |',
      '|---|---:|---:|---:|---:|---:|---|',
      ...report.exports.map((e) => {
        const perMillion = 1_000_000 / e.rowsPerSecond;
        const target = e.path.startsWith('/api/users/walletHistory') ? `${perMillion <= 30 ? 'met' : '**missed**'} (≤ 30 s)` : '';
        return `| ${e.name} | ${e.rows.toLocaleString('en-IN')} | ${(e.bytes / 1e6).toFixed(0)} | ${e.seconds.toFixed(1)} | ` +
          `${Math.round(e.rowsPerSecond).toLocaleString('en-IN')} | ${perMillion.toFixed(1)} s | ${target} |`;
      }),
      '',
    );
  }
  const h = report.health;
  if (h) {
    lines.push(
      `/api/health while ${h.heavyConnections} heavy requests run back to back (${h.heavy.join(', ')}): ` +
        `p50 ${h.p50} ms, p95 ${h.p95} ms, max ${h.max} ms over ${h.checks} checks, ${h.unhealthy} not 200 — ` +
        `target (within 100 ms): ${h.max <= 100 && h.unhealthy === 0 ? 'met' : '**missed**'}. ` +
        `${h.heavyRequests} heavy requests finished meanwhile, ${h.heavyFailures} of them not 200.`,
      '',
    );
  }
  return lines;
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits));

function verdict(r: Row): string {
  if (r.p95Target === null) return '';
  const ok = r.p95 <= r.p95Target && (r.minRps === undefined || r.rps >= r.minRps) && r.failures === 0;
  return `${ok ? 'met' : '**missed**'} (p95 ≤ ${r.p95Target} ms${r.minRps ? `, ≥ ${r.minRps} req/s` : ''})`;
}

/** Where a report goes: results.* (PostgreSQL), results-pglite.*; smoke and tuning runs elsewhere. */
function baseName(report: Pick<Report, 'smoke' | 'dev' | 'database'>): string {
  const name = report.smoke ? 'results-smoke' : report.dev ? 'results-dev' : 'results';
  return path.join(import.meta.dirname, report.database === 'PGlite' ? `${name}-pglite` : name);
}

/**
 * The embedded database against the server, scenario by scenario (issue 7: PGlite at 100,000
 * members within 4× the PostgreSQL figures at 1,000,000), from the two full runs' JSON files.
 */
function comparison(): string[] {
  const read = (file: string) => {
    const full = path.join(import.meta.dirname, file);
    return fs.existsSync(full) ? (JSON.parse(fs.readFileSync(full, 'utf8')) as Report & { date: string }) : null;
  };
  const server = read('results.json');
  const embedded = read('results-pglite.json');
  if (!server || !embedded) return [];
  const byName = new Map(server.rows.map((r) => [r.name.replace(/\(root of [^)]*\)/, ''), r]));
  const rows = embedded.rows.flatMap((e) => {
    const s = byName.get(e.name.replace(/\(root of [^)]*\)/, ''));
    if (!s || e.p95Target === null) return [];
    const ratio = e.p95 / Math.max(s.p95, 1);
    return [`| ${e.name} | ${e.p95} | ${s.p95} | ${ratio.toFixed(1)}× | ${e.rps.toFixed(0)} | ${s.rps.toFixed(0)} | ${ratio <= 4 ? 'met' : '**missed**'} (≤ 4×) |`];
  });
  return [
    `## PGlite (${embedded.members.toLocaleString('en-IN')} members, ${embedded.date.slice(0, 10)}) against PostgreSQL (${server.members.toLocaleString('en-IN')} members, ${server.date.slice(0, 10)})`,
    '',
    '| scenario | PGlite p95 ms | PostgreSQL p95 ms | p95 ratio | PGlite req/s | PostgreSQL req/s | target |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
  ];
}

/** Which load generator measured what (bench/load.ts): wrk when installed, autocannon for mixes and where wrk is missing. */
function loadGenerators(rows: Row[]): string {
  const byAutocannon = rows.filter((r) => r.generator === 'autocannon').map((r) => r.name);
  if (!rows.some((r) => r.generator === 'wrk')) return 'autocannon';
  return byAutocannon.length === 0 ? 'wrk (2 threads)' : `wrk (2 threads; autocannon for ${byAutocannon.join(', ')})`;
}

/** The Markdown of a report; full runs end with the PGlite-against-PostgreSQL comparison. */
function render(report: Report & { date: string }): string {
  const lines = [
    `# Benchmark results${report.smoke ? ' (smoke)' : ''}`,
    '',
    `${report.date.slice(0, 10)} — ${report.database}, ${report.members.toLocaleString('en-IN')} members, ` +
      `${report.ledgerRows.toLocaleString('en-IN')} ledger rows (${report.size}), seeded in ${report.seedSeconds.toFixed(0)} s. ` +
      `${loadGenerators(report.rows)}, ${report.connections} connections, ${report.seconds} s per scenario after a warm-up, server and load ` +
      'generator on one 2-core machine.',
    '',
    ...(report.database === 'PGlite'
      ? ['The targets are PostgreSQL\'s at ten times the members; the embedded database\'s is to stay within 4× of the PostgreSQL figures (the comparison at the end).', '']
      : []),
    '| scenario | req/s | p50 ms | p95 ms | p99 ms | ratio to ceiling | DB ms (EXPLAIN) | HTTP p50 ÷ DB | failed | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...report.rows.map(
      (r) =>
        `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p95} | ${r.p99} | ${(r.ratio * 100).toFixed(0)} % | ${fmt(r.dbMs, 2)} | ` +
        `${r.dbMs ? fmt(r.p50 / r.dbMs) : '—'} | ${r.failures} | ${report.database === 'PGlite' ? (r.p95Target === null ? '' : 'see below') : verdict(r)} |`,
    ),
    '',
    report.panel
      ? `Users page in Chromium (target: first rows within 600 ms, issue 23): first rows ${report.panel.firstRowsMs} ms after navigation, ` +
        `next page ${report.panel.nextPageMs} ms, level filter ${report.panel.levelFilterMs} ms.`
      : 'Users page in Chromium: not measured (no Chromium, or a tuning run).',
    '',
    report.lighthouse
      ? `Lighthouse on /signin (mobile, simulated throttling; target 100 / 100): performance ${report.lighthouse.performance}, ` +
        `accessibility ${report.lighthouse.accessibility}; ` +
        Object.entries(report.lighthouse.metrics).map(([k, v]) => `${k} ${k === 'CLS' ? v.toFixed(3) : Math.round(v)}`).join(', ') + '.'
      : 'Lighthouse on /signin: not measured (no Chromium, or a tuning run).',
    '',
    ...pgbenchSection(report),
    ...boundedWork(report),
    report.invariants == null
      ? 'Money invariants: not checked.'
      : report.invariants.length === 0
        ? 'Money invariants after the run (every balance equals its ledger sum, none negative, day totals match the ledger): **hold**.'
        : `Money invariants after the run: **broken** — ${report.invariants.slice(0, 10).join('; ')}`,
    '',
  ];
  return [...lines, ...(report.smoke || report.dev ? [] : comparison())].join('\n');
}

/**
 * bench/results.md and results.json (PostgreSQL), results-pglite.* (PGlite); smoke and tuning
 * runs: results-smoke*, results-dev* (not committed). A full run also re-renders the other
 * database's Markdown, so both end with the same comparison.
 */
export function writeReport(report: Report): string {
  const base = baseName(report);
  const dated = { date: new Date().toISOString(), ...report };
  fs.writeFileSync(`${base}.json`, `${JSON.stringify(dated, null, 2)}\n`);
  fs.writeFileSync(`${base}.md`, render(dated));
  if (!report.smoke && !report.dev) {
    const other = baseName({ ...report, database: report.database === 'PGlite' ? 'PostgreSQL' : 'PGlite' });
    if (fs.existsSync(`${other}.json`)) {
      fs.writeFileSync(`${other}.md`, render(JSON.parse(fs.readFileSync(`${other}.json`, 'utf8'))));
    }
  }
  return `${base}.md`;
}
