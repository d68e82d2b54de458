import os from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEEP_PAGE_MESSAGE, pageTooDeep } from '../../contract/common.ts';
import { AppError } from '../lib/errors.ts';

/** A page larger than this is heavy: the panel's pages are 10 to 100 rows. */
const LARGE_PAGE = 100;
/**
 * Large pages this process works on at once; more wait their turn (their socket stays open,
 * nothing runs). More than one per core only contends: measured on 2 cores with 16 at once,
 * 4 slots left /api/health at p95 60–115 ms, 2 slots at 16–44 ms, for the same throughput.
 */
const HEAVY_AT_ONCE = Math.max(2, os.availableParallelism());
/** CSV exports this process streams at once; more wait their turn. */
const EXPORTS_AT_ONCE = 2;

/** A first-come, first-served counter of slots. */
function slots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async take(): Promise<() => void> {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const next = waiting.shift();
        if (next) next();
        else free++;
      };
    },
  };
}

type Paged = { page?: unknown; limit?: unknown } | undefined;

/**
 * Bounded work per request (issue 13), checked once for every route on its validated query:
 * - no page past the first MAX_PAGED_ROWS rows: an offset that deep reads and discards every row
 *   before it (seconds on a million-row ledger), and a handful at once starve the pool;
 * - CSV exports and large pages take a slot, so a burst of them queues here instead of taking
 *   every core: the event loop, and /api/health on it, keep answering within milliseconds.
 */
export function registerBoundedWork(app: FastifyInstance): void {
  const heavy = slots(HEAVY_AT_ONCE);
  const exports = slots(EXPORTS_AT_ONCE);
  const gateOf = (request: FastifyRequest) => {
    if (request.routeOptions.url?.endsWith('.csv')) return exports;
    const limit = (request.query as Paged)?.limit;
    return typeof limit === 'number' && limit > LARGE_PAGE ? heavy : null;
  };

  // A callback hook: a request that takes no slot (nearly all) makes no promise.
  app.addHook('preHandler', (request, reply, done) => {
    const query = request.query as Paged;
    if (typeof query?.page === 'number' && typeof query.limit === 'number' && pageTooDeep(query.page, query.limit)) {
      return done(new AppError(400, DEEP_PAGE_MESSAGE));
    }
    const gate = gateOf(request);
    if (!gate) return done();
    gate.take().then((release) => {
      // 'close' comes once the answer is sent (a streamed export included) or the client went away.
      if (reply.raw.closed || request.raw.destroyed) release();
      else reply.raw.once('close', release);
      done();
    }, done);
  });
}
