import autocannon from 'autocannon';
import hdr from 'hdr-histogram-js';

export interface LoadResult {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  failures: number;
  /** What the failures were: connection errors, timeouts, answers other than 2xx. */
  failureKinds?: { errors: number; timeouts: number; non2xx: number };
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Called for every request, e.g. to give each its own Idempotency-Key. */
  setupRequest?: (req: { headers?: Record<string, string> }) => { headers?: Record<string, string> };
  /** A mix: these requests in turn on every connection (paths relative to `url`'s origin). */
  mix?: { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; setupRequest?: LoadOptions['setupRequest'] }[];
  connections: number;
  seconds: number;
}

/** One fixed-connection, fixed-duration autocannon run; percentiles from its latency histogram. */
export async function load(o: LoadOptions): Promise<LoadResult> {
  const result = (await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.seconds,
    skipAggregateResult: true,
    requests: (o.mix ?? [{ method: o.method, headers: o.headers, setupRequest: o.setupRequest }]).map((r) => ({
      method: r.method ?? 'GET',
      ...('path' in r ? { path: r.path } : {}),
      headers: { ...o.headers, ...r.headers },
      body: o.body,
      ...(r.setupRequest ? { setupRequest: r.setupRequest as never } : {}),
    })),
  })) as unknown as {
    latencies: string;
    totalCompletedRequests: number;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  const histogram = hdr.decodeFromCompressedBase64(result.latencies);
  const out = {
    rps: result.totalCompletedRequests / result.duration,
    p50: histogram.getValueAtPercentile(50),
    p95: histogram.getValueAtPercentile(95),
    p99: histogram.getValueAtPercentile(99),
    requests: result.totalCompletedRequests,
    failures: result.errors + result.timeouts + result.non2xx,
    failureKinds: { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx },
  };
  histogram.destroy();
  return out;
}
