/** The bounded-work scenarios of issue 13: whole CSV exports, and /api/health while heavy requests run. */
import { Worker } from 'node:worker_threads';

export interface ExportTiming {
  name: string;
  path: string;
  rows: number;
  bytes: number;
  seconds: number;
  /** Rows per second over the whole stream; 1,000,000 ÷ this is the target's figure. */
  rowsPerSecond: number;
}

/** Streams one CSV export to its end, counting its lines (the header excluded). */
export async function measureExport(baseUrl: string, token: string, name: string, path: string): Promise<ExportTiming> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok || !res.body) throw new Error(`${path} answered ${res.status}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = lines - 1;
  return { name, path, rows, bytes, seconds, rowsPerSecond: rows / seconds };
}

export interface HealthUnderLoad {
  heavy: string[];
  heavyConnections: number;
  heavyRequests: number;
  /** Answers to the heavy requests other than 200 (a 503 from the statement timeout counts here). */
  heavyFailures: number;
  checks: number;
  p50: number;
  p95: number;
  max: number;
  /** Health answers other than 200. */
  unhealthy: number;
}

/** Asks /api/health every 100 ms until `until`, as a load balancer would; posts the latencies. */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const latencies = [];
  let unhealthy = 0;
  while (Date.now() < workerData.until) {
    const started = performance.now();
    const res = await fetch(workerData.url);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (res.status !== 200) unhealthy++;
    await new Promise((r) => setTimeout(r, 100));
  }
  parentPort.postMessage({ latencies, unhealthy });
})();
`;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/**
 * `connections` clients (spread evenly over the heavy requests) send theirs back to back for
 * `seconds`; meanwhile a prober thread asks /api/health every 100 ms. The heavy answers are read
 * to the end (a CSV export is aborted when the time is up).
 */
export async function measureHealthUnderLoad(
  baseUrl: string,
  token: string,
  heavy: string[],
  connections: number,
  seconds: number,
): Promise<HealthUnderLoad> {
  const stop = new AbortController();
  const deadline = Date.now() + seconds * 1000;
  let heavyRequests = 0;
  let heavyFailures = 0;
  const worker = async (path: string) => {
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${baseUrl}${path}`, {
          headers: { authorization: `Bearer ${token}` },
          signal: stop.signal,
        });
        await res.arrayBuffer();
        heavyRequests++;
        if (res.status !== 200) heavyFailures++;
      } catch {
        if (!stop.signal.aborted) heavyFailures++;
      }
    }
  };
  const workers = Array.from({ length: connections }, (_, n) => worker(heavy[n % heavy.length]));
  // Let every heavy request reach the server before the first check.
  await new Promise((r) => setTimeout(r, 500));
  // The checks run on a thread of their own: this one is busy reading the heavy answers, and its
  // own delays must not be counted as the server's.
  const prober = new Worker(PROBER, { eval: true, workerData: { url: `${baseUrl}/api/health`, until: deadline } });
  const { latencies, unhealthy } = await new Promise<{ latencies: number[]; unhealthy: number }>((resolve, reject) => {
    prober.once('message', resolve);
    prober.once('error', reject);
  });
  stop.abort();
  await Promise.all(workers);
  const sorted = latencies.sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    heavy,
    heavyConnections: connections,
    heavyRequests,
    heavyFailures,
    checks: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? NaN),
    unhealthy,
  };
}
