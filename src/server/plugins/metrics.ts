import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { APPROVAL_KINDS } from '../../contract/approvals.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { incomeRuns } from '../db/schema/income.ts';
import { moneyRequests } from '../db/schema/money.ts';

/** Prometheus's conventional path, outside /api: the session guard does not apply, the check below does. */
export const METRICS_PATH = '/metrics';

/**
 * Request latency buckets (seconds): the bench's p95 targets (10, 25, 40, 50 ms) are bucket
 * bounds, so "p95 above target" reads exactly off the histogram.
 */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.04, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** A request that matched no route is counted under this route label, never under its raw URL. */
const UNMATCHED = 'unmatched';

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, handles, GC, event-loop delay: prom-client's defaults),
 * in a registry of their own made once per process. They describe the process, not an app, and
 * prom-client's event-loop monitor and GC observer cannot be stopped: made per app, every app a
 * test file builds would leave one running.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may read /metrics (null: nobody, the route does not exist). Either configured way grants:
 * an address in METRICS_ALLOW, or the METRICS_TOKEN bearer token (compared in constant time, as
 * digests of equal length). A refusal answers 401 when a token would let the caller in and it sent
 * none or a wrong one, else 403.
 */
function accessCheck(config: Pick<Config, 'metricsToken' | 'metricsAllow'>) {
  const token = config.metricsToken ? digest(config.metricsToken) : null;
  let allow: net.BlockList | null = null;
  if (config.metricsAllow.length > 0) {
    allow = new net.BlockList();
    for (const s of config.metricsAllow) allow.addSubnet(s.network, s.prefix, s.family);
  }
  if (!token && !allow) return null;

  return async (request: FastifyRequest, reply: FastifyReply) => {
    const family = net.isIP(request.ip);
    if (allow && family !== 0 && allow.check(request.ip, family === 4 ? 'ipv4' : 'ipv6')) return;
    const header = request.headers.authorization;
    if (token) {
      const given = header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
      if (given && timingSafeEqual(digest(given), token)) return;
      // With an allow-list too, a caller that sent no token was refused for its address.
      if (!allow || header) {
        return reply.code(401).header('www-authenticate', 'Bearer').send({
          success: false, message: 'The metrics need the bearer token from METRICS_TOKEN',
        });
      }
    }
    return reply.code(403).send({ success: false, message: 'This address may not read the metrics' });
  };
}

/** The HTTP metrics: every answer counted and timed under its route pattern. */
function requestMetrics(app: FastifyInstance, registry: Registry) {
  const requests = new Counter({
    name: 'backoffice_http_requests_total',
    help: 'Requests answered, by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status_code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'backoffice_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer being written, by route pattern and method.',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    if (route !== METRICS_PATH) {
      requests.inc({ route, method: request.method, status_code: String(reply.statusCode) });
      duration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    }
    done();
  });
}

/** The PostgreSQL pool, read when scraped (absent on PGlite, which has no pool). */
function poolMetrics(database: Database, registry: Registry) {
  if (!database.poolStats()) return;
  const stats = () => database.poolStats()!;
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });
  gauge('backoffice_db_pool_connections', 'Connections the request pool holds open.', () => stats().total);
  gauge('backoffice_db_pool_idle_connections', 'Open connections not in use.', () => stats().idle);
  gauge('backoffice_db_pool_waiting_requests', 'Callers queued for a connection right now.', () => stats().waiting);
  gauge('backoffice_db_pool_max_connections', 'The pool size.', () => stats().max);
  // Counters kept by the pool since it opened: each scrape adds what changed since the last.
  const counter = (name: string, help: string, read: () => number) => {
    let last = 0;
    return new Counter({
      name, help, registers: [registry],
      collect() {
        const now = read();
        if (now > last) this.inc(now - last);
        last = now;
      },
    });
  };
  counter('backoffice_db_pool_acquires_total', 'Connections handed out by the pool.', () => stats().acquired);
  counter('backoffice_db_pool_acquire_wait_seconds_total', 'Seconds callers waited for a connection, together.', () => stats().waitSeconds);
}

/** Bank lines in transit (count, amount, oldest age in seconds) and batches waiting (draft, pending release). */
type BankTransitRow = { lines: string; paise: string; oldest: number | null; draft: string; pending: string };

/**
 * Bank transfers in transit and batches waiting, in one small statement: the lines in transit are
 * counted and the oldest found in bank_in_transit (only lines in transit are in it; its since
 * index puts the oldest first); their amount is the open part of the released batches
 * (bank_batches_status_idx: a handful of rows, kept in the same transaction as each line's
 * settlement or return); the batches waiting are counted on the same index.
 */
async function bankTransit(database: Database) {
  const [row] = await database.query<BankTransitRow>(`
    select (select count(*) from bank_in_transit)::int8 as lines,
           (select extract(epoch from now() - min(since))::float8 from bank_in_transit) as oldest,
           (select coalesce(sum(total_paise - settled_paise - returned_paise), 0) from bank_batches where status = 'released')::int8 as paise,
           (select count(*) from bank_batches where status = 'draft')::int8 as draft,
           (select count(*) from bank_batches where status = 'pending_release')::int8 as pending`);
  return {
    lines: Number(row.lines),
    paise: Number(row.paise),
    oldestSeconds: Math.max(0, Number(row.oldest ?? 0)),
    batches: { draft: Number(row.draft), pending_release: Number(row.pending) },
  };
}

/**
 * What the database says at scrape time: income runs in progress, approvals waiting and bank
 * transfers in transit (bankTransit). Small reads: runs in progress are a handful of rows of
 * income_runs (a row per kind and period), and pending money_requests are read off
 * money_requests_status_idx.
 */
function workMetrics(app: FastifyInstance, registry: Registry) {
  const runLabels = ['run_id', 'kind', 'status'];
  const runsInProgress = new Gauge({
    name: 'backoffice_income_runs_in_progress', help: "Income runs 'running' or 'reversing'.", registers: [registry],
  });
  const runDone = new Gauge({
    name: 'backoffice_income_run_done', help: 'Units (memberships, members) a run in progress has done.',
    labelNames: runLabels, registers: [registry],
  });
  const runTotal = new Gauge({
    name: 'backoffice_income_run_total', help: 'Units a run in progress has in all.', labelNames: runLabels, registers: [registry],
  });
  const runStarted = new Gauge({
    name: 'backoffice_income_run_started_timestamp_seconds', help: 'When a run in progress started (Unix seconds).',
    labelNames: runLabels, registers: [registry],
  });
  const runReversed = new Gauge({
    name: 'backoffice_income_run_reversed_members', help: "Members a 'reversing' run has reversed so far.",
    labelNames: ['run_id', 'kind'], registers: [registry],
  });
  const approvalsWaiting = new Gauge({
    name: 'backoffice_approvals_waiting', help: 'Money requests waiting for a second operator, by kind.',
    labelNames: ['kind'], registers: [registry],
  });
  const approvalsOldest = new Gauge({
    name: 'backoffice_approvals_oldest_waiting_seconds', help: 'Age of the oldest waiting money request, by kind (0: none waits).',
    labelNames: ['kind'], registers: [registry],
  });
  // Bank transfers (issue 25, docs/bank-transfers.md): lines released to the bank and not yet
  // confirmed (UTR) or returned, and batches waiting to be released.
  const transit = {
    lines: new Gauge({
      name: 'backoffice_bank_transfers_in_transit', help: 'Bank transfer lines released to the bank and not yet settled or returned.', registers: [registry],
    }),
    amount: new Gauge({
      name: 'backoffice_bank_transfers_in_transit_rupees', help: 'What those lines send, in rupees (the open part of the released batches).', registers: [registry],
    }),
    oldest: new Gauge({
      name: 'backoffice_bank_transfers_oldest_unconfirmed_seconds',
      help: 'Age of the oldest bank transfer line in transit, since its batch was released (0: none is in transit).', registers: [registry],
    }),
    batches: new Gauge({
      name: 'backoffice_bank_batches_waiting', help: "Bank batches not yet released, by status ('draft', 'pending_release').",
      labelNames: ['status'], registers: [registry],
    }),
  };
  const databaseOk = new Gauge({
    name: 'backoffice_metrics_database_ok', help: 'Whether the scrape read the database (1) or not (0: the run and approval metrics are absent).',
    registers: [registry],
  });

  const fromDatabase = [runsInProgress, runDone, runTotal, runStarted, runReversed, approvalsWaiting, approvalsOldest, ...Object.values(transit)];
  return async function read(database: Database) {
    try {
      const { db } = database;
      const [runs, approvals, bank] = await Promise.all([
        db.select({
          runId: incomeRuns.runId, kind: incomeRuns.kind, status: incomeRuns.status, done: incomeRuns.done, total: incomeRuns.total,
          started: sql<number>`extract(epoch from ${incomeRuns.startedAt})::float8`,
          reversed: sql<number | null>`(${incomeRuns.state}->'reversal'->>'members')::int8`,
        }).from(incomeRuns).where(inArray(incomeRuns.status, ['running', 'reversing'])),
        db.select({
          kind: moneyRequests.kind, waiting: count(),
          oldest: sql<number>`extract(epoch from now() - min(${moneyRequests.createdAt}))::float8`,
        }).from(moneyRequests).where(eq(moneyRequests.status, 'pending')).groupBy(moneyRequests.kind),
        bankTransit(database),
      ]);
      // Set at once after both reads: a run that finished since the last scrape leaves no series.
      for (const g of fromDatabase) g.reset();
      runsInProgress.set(runs.length);
      for (const r of runs) {
        const labels = { run_id: String(r.runId), kind: r.kind, status: r.status };
        runDone.set(labels, Number(r.done));
        runTotal.set(labels, Number(r.total));
        runStarted.set(labels, Number(r.started));
        if (r.status === 'reversing') runReversed.set({ run_id: labels.run_id, kind: r.kind }, Number(r.reversed ?? 0));
      }
      for (const { value } of APPROVAL_KINDS) {
        approvalsWaiting.set({ kind: value }, 0);
        approvalsOldest.set({ kind: value }, 0);
      }
      for (const a of approvals) {
        approvalsWaiting.set({ kind: a.kind }, Number(a.waiting));
        approvalsOldest.set({ kind: a.kind }, Math.max(0, Number(a.oldest)));
      }
      transit.lines.set(bank.lines);
      transit.amount.set(bank.paise / 100);
      transit.oldest.set(bank.oldestSeconds);
      for (const status of ['draft', 'pending_release'] as const) transit.batches.set({ status }, bank.batches[status]);
      databaseOk.set(1);
    } catch (err) {
      app.log.warn({ err }, 'metrics: the database could not be read');
      for (const g of fromDatabase) g.reset();
      databaseOk.set(0);
    }
  };
}

/**
 * GET /metrics in Prometheus's text format, when METRICS_TOKEN or METRICS_ALLOW is set (README,
 * "Monitoring"); otherwise nothing is registered and the path is as unknown as any other. The
 * app's metrics live in a registry of its own (a process may build many apps: the tests), cleared
 * when the app closes.
 */
export function registerMetrics(app: FastifyInstance): void {
  const check = accessCheck(app.config);
  if (!check) return;
  const registry = new Registry();
  requestMetrics(app, registry);
  poolMetrics(app.database, registry);
  const readWork = workMetrics(app, registry);
  const scrape = Registry.merge([processMetrics(), registry]);
  app.addHook('onClose', async () => registry.clear());

  app.get(METRICS_PATH, { schema: { hide: true }, onRequest: check }, async (_request, reply) => {
    await readWork(app.database);
    const text = await scrape.metrics();
    return reply.type(scrape.contentType).header('cache-control', 'no-store').send(text);
  });
}
