import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE } from '../../contract/permissions.ts';
import { loadSession } from '../modules/auth/session.ts';
import { sessionFor } from './accounts.ts';
import { runsSettled } from '../modules/income/runs/engine.ts';
import { changedTables, watchTables, type TableChecksums, type TableWatch } from './fuzz/checksum.ts';
import { requestFor, strayRequest, type FuzzRequest } from './fuzz/requests.ts';
import { routeShapes, type RouteShape } from './fuzz/shapes.ts';
import { ADMIN_EMAIL, createTestApp, testDbKind, type TestContext } from './harness.ts';

/**
 * Property-based fuzzing of every registered route (app.routeList, so later routes are covered
 * too) with fast-check: random and hostile input must never give a 5xx, every error must be
 * `{ success: false, message }`, and a rejected write must leave every table as it was.
 *
 * FUZZ_REQUESTS sets the total (default 10,000 per run); FUZZ_LONG=1 sends 100,000;
 * FUZZ_SEED replays a run (each failure names the seed).
 */
const TOTAL = Number(process.env.FUZZ_REQUESTS) || (process.env.FUZZ_LONG ? 100_000 : 10_000);
const SEED = Number(process.env.FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);

/** Requests whose failures are counted for a rate limit (login_failures): sign-in, reset mails, wrong two-factor codes, wrong passwords on an email or password change. */
const COUNTED_ATTEMPTS = [/^POST \/api\/Adminlogin/, /^POST \/api\/users\/forgot-password/, /^(POST|DELETE) \/api\/account\/two-factor/, /^PUT \/api\/account\/(email|password)/];

/**
 * Rows a refused request may legitimately write: a failed attempt is counted (login_failures,
 * for the rate limits), and a refused money request with an Idempotency-Key is remembered so a
 * retry answers the same (idempotency_keys, decisions.md).
 */
function mayWriteWhenRefused(req: FuzzRequest): Set<string> {
  // Every server copy's liveness and the auth version it applied, written by its own timer and
  // listener (modules/auth/session-cache.ts), never by a request's own work.
  const allowed = new Set<string>(['server_copies']);
  if (COUNTED_ATTEMPTS.some((pattern) => pattern.test(`${req.method} ${req.url}`))) allowed.add('login_failures');
  if (req.headers['idempotency-key'] !== undefined) allowed.add('idempotency_keys');
  return allowed;
}

function describeRequest(req: FuzzRequest): string {
  const body = req.payload === undefined ? '' : ` ${String(req.payload).slice(0, 160)}`;
  return `${req.kind} ${req.method} ${req.url.slice(0, 200)}${body}`;
}

interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  failures: string[];
}

/** What every answer must look like, whatever was sent. */
function answerProblems(status: number, contentType: string, body: string): string | null {
  if (status >= 500) return `answered ${status}: ${body.slice(0, 200)}`;
  if (status < 400) return null;
  if (!contentType.includes('application/json')) return `error ${status} is not JSON (${contentType})`;
  let parsed: { success?: unknown; message?: unknown };
  try {
    parsed = JSON.parse(body);
  } catch {
    return `error ${status} body is not JSON: ${body.slice(0, 200)}`;
  }
  if (parsed.success !== false || typeof parsed.message !== 'string' || parsed.message.length === 0) {
    return `error ${status} is not { success: false, message }: ${body.slice(0, 200)}`;
  }
  return null;
}

describe(`fuzzing every route with ${TOTAL} generated requests (seed ${SEED})`, () => {
  let t: TestContext;
  let shapes: RouteShape[];
  let adminId: number;
  let token: string;
  let dataDir: string;
  let tables: TableWatch;
  const tally: Tally = { requests: 0, byStatus: new Map(), failures: [] };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-fuzz-'));
    t = await createTestApp({
      members: 30,
      // Sign-in attempts are fuzzed too: a high limit lets them reach the password check.
      config: { dataDir, loginMaxFailuresPerEmail: 1_000_000, loginMaxFailuresPerIp: 1_000_000 },
    });
    shapes = routeShapes(t.app);
    [{ user_id: adminId }] = await t.database.query<{ user_id: number }>('select user_id from users where email = $1', [ADMIN_EMAIL]);
    token = await sessionFor(t.database, adminId);
    tables = await watchTables(t.database);
    // A migrated database with 30 members: 20–40 s alone, several times that on a loaded 2-core machine.
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * A fuzzed request may sign the fuzzing administrator out, deactivate or delete them: put the
   * account back and issue a new session, so the remaining requests still reach the handlers.
   */
  async function keepAdminUsable(): Promise<boolean> {
    const auth = await loadSession(t.app, token);
    if (auth && auth.role === ADMIN_ROLE) return false;
    await t.database.query(
      `update users set status = true, deleted_at = null, role_id = (select role_id from roles where name = $2) where user_id = $1`,
      [adminId, ADMIN_ROLE],
    );
    await t.database.query('update roles set status = true where name = $1', [ADMIN_ROLE]);
    token = await sessionFor(t.database, adminId);
    return true;
  }

  async function send(req: FuzzRequest) {
    tally.requests += 1;
    let res;
    try {
      res = await t.app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers: req.headers,
        ...(req.payload !== undefined ? { payload: req.payload } : {}),
      });
    } catch (err) {
      tally.failures.push(`no complete answer (${(err as Error).message})\n    ← ${describeRequest(req)}`);
      return 599;
    }
    // A started income run works on in the background: its writes belong to the request that started
    // it (answered 201/200), so let it finish before the next request's before/after checksums.
    await runsSettled(t.database);
    tally.byStatus.set(res.statusCode, (tally.byStatus.get(res.statusCode) ?? 0) + 1);
    const problem = answerProblems(res.statusCode, String(res.headers['content-type'] ?? ''), res.body);
    if (problem) tally.failures.push(`${problem}\n    ← ${describeRequest(req)}`);
    return res.statusCode;
  }

  async function fuzzRoute(route: RouteShape, runs: number, seed: number) {
    // The token is baked into each request when it is generated, so generate in small batches.
    const batches = Math.ceil(runs / 25);
    for (let b = 0; b < batches; b += 1) {
      const requests = fc.sample(requestFor(route, token), { numRuns: Math.min(25, runs - b * 25), seed: seed + b });
      if (route.method === 'GET') {
        const before = await tables.checksums();
        for (const req of requests) await send(req);
        // server_copies is written by each copy's own timer (session-cache.ts), never by a request:
        // on a busy machine its beat can land inside a batch of GETs.
        const changed = changedTables(before, await tables.checksums()).filter((name) => name !== 'server_copies');
        if (changed.length) tally.failures.push(`GET ${route.url} changed ${changed.join(', ')} (seed ${seed + b})`);
        continue;
      }
      let before: TableChecksums = await tables.checksums();
      for (const req of requests) {
        req.headers.authorization = `Bearer ${token}`;
        const status = await send(req);
        let after = await tables.checksums();
        if (status >= 400) {
          const allowed = mayWriteWhenRefused(req);
          // A request that can no longer be approved (its member or maker deactivated meanwhile,
          // its start day passed) is decided as 'expired' and answered 409: the decision and its
          // audit row are written on purpose (approvals.service `expire`), and, since that answer
          // commits, so is the keyless-duplicate guard's row (lib/idempotency.ts), nothing else.
          const approving = status === 409 && /^\/api\/approvals\/(\d+)\/approve$/.exec(req.url.split('?')[0]);
          if (approving) {
            const [row] = await t.database.query<{ status: string }>('select status from money_requests where id = $1', [Number(approving[1])]);
            if (row?.status === 'expired') for (const name of ['money_requests', 'audit_log', 'idempotency_keys']) allowed.add(name);
          }
          const changed = changedTables(before, after).filter((name) => !allowed.has(name));
          if (changed.length) tally.failures.push(`refused with ${status} but changed ${changed.join(', ')}\n    ← ${describeRequest(req)}`);
        }
        if ((status < 300 || status === 401) && (await keepAdminUsable())) after = await tables.checksums();
        before = after;
      }
    }
  }

  it('never answers 5xx, always answers errors as { success: false, message }, and a refused request changes no table', async () => {
    const targets = shapes.length + 1;
    const perRoute = Math.ceil(TOTAL / targets);
    // Reads first, then writes, so deletes come after the reads that look those rows up.
    const ordered = [...shapes.filter((s) => s.method === 'GET'), ...shapes.filter((s) => s.method !== 'GET')];
    for (const [i, route] of ordered.entries()) await fuzzRoute(route, perRoute, SEED + i * 1000);
    for (const req of fc.sample(strayRequest, { numRuns: perRoute, seed: SEED - 1 })) await send(req);

    const statuses = [...tally.byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    console.info(`fuzz [${testDbKind}] seed ${SEED}: ${tally.requests} requests over ${targets} targets; ${statuses}`);
    expect(tally.failures.slice(0, 40), `seed ${SEED}: ${tally.failures.length} failures`).toEqual([]);
    expect(tally.requests).toBeGreaterThanOrEqual(TOTAL);
  }, 600_000);
});
