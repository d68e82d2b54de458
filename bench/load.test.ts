import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, wrkAvailable } from './load.ts';

/** A server that answers /ok with 200 and anything else with 503, counting what it was sent. */
let server: http.Server;
let base = '';
const seen = { requests: 0, authorized: 0, posts: [] as { key: string | undefined; body: string }[] };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.requests++;
    if (req.headers.authorization === 'Bearer t0ken') seen.authorized++;
    if (req.method === 'POST') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        seen.posts.push({ key: req.headers['idempotency-key'] as string | undefined, body });
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"success":true}');
      });
      return;
    }
    res.writeHead(req.url === '/ok' ? 200 : 503, { 'content-type': 'application/json' }).end('{"success":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// CI installs Debian's wrk (.ci/run); without it the reads go through autocannon, tested the same way.
describe.each([['wrk', wrkAvailable()], ['autocannon', true]] as const)('a fixed request through %s', (generator, installed) => {
  it.runIf(installed)('counts the answers, sends the headers, and tells failures apart', async () => {
    const saved = process.env.BENCH_LOAD;
    process.env.BENCH_LOAD = generator === 'autocannon' ? 'autocannon' : '';
    try {
      seen.requests = 0;
      seen.authorized = 0;
      const ok = await load({ url: `${base}/ok`, headers: { authorization: 'Bearer t0ken' }, connections: 4, seconds: 1 });
      expect(ok.generator).toBe(generator);
      expect(ok.requests).toBeGreaterThan(10);
      // The generator may stop with a request or two in flight that the server already counted.
      expect(seen.requests).toBeGreaterThanOrEqual(ok.requests);
      expect(seen.authorized).toBe(seen.requests);
      expect(ok.rps).toBeGreaterThan(0);
      expect(ok.failures).toBe(0);
      expect(ok.p50).toBeLessThanOrEqual(ok.p95);
      expect(ok.p95).toBeLessThanOrEqual(ok.p99);

      const failing = await load({ url: `${base}/down`, connections: 2, seconds: 1 });
      expect(failing.requests).toBeGreaterThan(0);
      expect(failing.failureKinds?.non2xx).toBe(failing.requests);
      expect(failing.failures).toBe(failing.requests);

      // A write: POST, the bodies in turn, a key of its own on every request, in every run.
      seen.posts = [];
      const bodies = ['{"userId":1}', '{"userId":2}', '{"userId":3}'];
      const options = { url: `${base}/write`, method: 'POST' as const, headers: { 'content-type': 'application/json' }, bodies, freshIdempotencyKey: true, connections: 4, seconds: 1 };
      const first = await load(options);
      const second = await load(options);
      expect(first.failures + second.failures).toBe(0);
      expect(seen.posts.length).toBeGreaterThanOrEqual(first.requests + second.requests);
      const keys = seen.posts.map((p) => p.key);
      expect(keys.every((k) => typeof k === 'string' && /^[0-9a-f-]{36}$/.test(k))).toBe(true);
      expect(new Set(keys).size).toBe(keys.length);
      expect(new Set(seen.posts.map((p) => p.body))).toEqual(new Set(bodies));
    } finally {
      process.env.BENCH_LOAD = saved;
    }
  }, 30_000);
});
