import { execFile, execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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
  /** The load generator that measured it. */
  generator?: 'wrk' | 'autocannon';
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Bodies sent in turn, one per request (instead of `body`). */
  bodies?: string[];
  /** Every request carries an Idempotency-Key of its own. */
  freshIdempotencyKey?: boolean;
  /** Called for every request (autocannon only). */
  setupRequest?: (req: { headers?: Record<string, string> }) => { headers?: Record<string, string> };
  /** A mix: these requests in turn on every connection (paths relative to `url`'s origin). */
  mix?: { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; setupRequest?: LoadOptions['setupRequest'] }[];
  connections: number;
  seconds: number;
}

/**
 * One fixed-connection, fixed-duration run, through wrk when it is installed (Debian's `wrk`;
 * BENCH_LOAD=autocannon forces autocannon): a load generator in C, like pgbench's own client, so
 * the HTTP figures pay far less for the load generator that shares the cores (issue 23: autocannon
 * took 41–124 µs of CPU a read, wrk 15–25 µs). Bodies in turn and fresh Idempotency-Keys are
 * written by wrk's Lua script; mixes and `setupRequest` callbacks go through autocannon.
 */
export async function load(o: LoadOptions): Promise<LoadResult> {
  if (!o.mix && !o.setupRequest && wrkAvailable()) return wrkLoad(o);
  return autocannonLoad(o);
}

let wrkFound: boolean | undefined;
/** wrk is on PATH and not turned off (BENCH_LOAD=autocannon). */
export function wrkAvailable(): boolean {
  if (process.env.BENCH_LOAD === 'autocannon') return false;
  if (wrkFound === undefined) {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' });
      wrkFound = true;
    } catch (error) {
      // wrk prints its usage and exits 1 on --version: found; ENOENT: not installed.
      wrkFound = (error as NodeJS.ErrnoException).code !== 'ENOENT';
    }
  }
  return wrkFound;
}

/** wrk's report, written by the script's done() as one JSON line (latencies in µs). */
type WrkSummary = {
  requests: number; duration_us: number; p50: number; p95: number; p99: number;
  connect: number; read: number; write: number; timeout: number; status: number;
};

/** A Lua long string holding `text` (no `]==]` in our paths). */
const luaString = (text: string) => `[==[${text}]==]`;

/**
 * The wrk script: the method, the bodies in turn (one per line of `bodiesFile`), an Idempotency-Key
 * per request (the run's random salt, the thread and a counter: never the same twice), and done()
 * writing the summary.
 */
function wrkScript(o: LoadOptions, bodiesFile: string | null): string {
  const oneByOne = bodiesFile !== null || o.freshIdempotencyKey;
  return `
wrk.method = ${luaString(o.method ?? 'GET')}
${o.body !== undefined ? `wrk.body = ${luaString(o.body)}` : ''}
local threads = 0
function setup(thread) threads = threads + 1; thread:set('tid', threads) end
local bodies, counter, salt = {}, 0, ''
function init(args)
  salt = args[1] or '00000000'
  ${bodiesFile !== null ? `for line in io.lines(${luaString(bodiesFile)}) do bodies[#bodies + 1] = line end` : ''}
end
${oneByOne ? `
function request()
  counter = counter + 1
  local headers = {}
  for k, v in pairs(wrk.headers) do headers[k] = v end
  ${o.freshIdempotencyKey ? `headers['idempotency-key'] = string.format('%s-%04x-4000-8000-%012x', salt, tid, counter)` : ''}
  local body = wrk.body
  if #bodies > 0 then body = bodies[(counter - 1) % #bodies + 1] end
  return wrk.format(nil, nil, headers, body)
end` : ''}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK{"requests":%d,"duration_us":%d,"p50":%d,"p95":%d,"p99":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"status":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    e.connect, e.read, e.write, e.timeout, e.status))
end
`;
}

/** A wrk run: 2 threads (as pgbench's -j 2), the given connections. */
async function wrkLoad(o: LoadOptions): Promise<LoadResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-wrk-'));
  const script = path.join(dir, 'load.lua');
  let bodiesFile: string | null = null;
  if (o.bodies) {
    if (o.bodies.length === 0 || o.bodies.some((b) => b.includes('\n'))) throw new Error('wrk bodies: at least one, each on one line');
    bodiesFile = path.join(dir, 'bodies.txt');
    fs.writeFileSync(bodiesFile, `${o.bodies.join('\n')}\n`);
  }
  fs.writeFileSync(script, wrkScript(o, bodiesFile));
  const headers = Object.entries(o.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  try {
    const { stdout } = await promisify(execFile)('wrk', [
      '-t', String(Math.min(2, o.connections)), '-c', String(o.connections), '-d', `${Math.max(1, Math.round(o.seconds))}s`,
      '--timeout', '10s', '-s', script, ...headers, o.url, '--', randomBytes(4).toString('hex'),
    ], { maxBuffer: 1 << 20 });
    const line = /WRK(\{.*\})/.exec(stdout)?.[1];
    if (!line) throw new Error(`wrk gave no report:\n${stdout}`);
    const w = JSON.parse(line) as WrkSummary;
    const ms = (us: number) => Math.round(us / 100) / 10;
    const errors = w.connect + w.read + w.write;
    return {
      rps: w.requests / (w.duration_us / 1e6),
      p50: ms(w.p50),
      p95: ms(w.p95),
      p99: ms(w.p99),
      requests: w.requests,
      failures: errors + w.timeout + w.status,
      failureKinds: { errors, timeouts: w.timeout, non2xx: w.status },
      generator: 'wrk',
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The autocannon form of `bodies` and `freshIdempotencyKey`: a setupRequest giving each request its own. */
function perRequest(o: LoadOptions): LoadOptions['setupRequest'] {
  if (o.setupRequest || (!o.bodies && !o.freshIdempotencyKey)) return o.setupRequest;
  let next = 0;
  return (req) => ({
    ...req,
    ...(o.bodies ? { body: o.bodies[next++ % o.bodies.length] } : {}),
    headers: { ...req.headers, ...(o.freshIdempotencyKey ? { 'idempotency-key': randomUUID() } : {}) },
  });
}

/** One autocannon run in this process; percentiles from its latency histogram. */
async function autocannonLoad(o: LoadOptions): Promise<LoadResult> {
  const result = (await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.seconds,
    skipAggregateResult: true,
    requests: (o.mix ?? [{ method: o.method, headers: o.headers, setupRequest: perRequest(o) }]).map((r) => ({
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
    generator: 'autocannon' as const,
  };
  histogram.destroy();
  return out;
}
