import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEEP_PAGE_MESSAGE } from '../../contract/common.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { ensureAdmin, ensureReferenceData } from '../db/bootstrap.ts';
import { openPostgres, type Database } from '../db/client.ts';
import { registerErrorHandling } from '../plugins/errors.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, testDbKind, type TestContext } from './harness.ts';

let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ members: 20 });
  token = await t.login();
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

/** What a list needs besides paging before it answers (its required filters). */
async function requiredQuery(): Promise<Record<string, string>> {
  const [member] = await t.database.query<{ user_id: number }>('select user_id from users where referred_by is null order by user_id limit 1');
  const [rank] = await t.database.query<{ rank_id: number }>('select rank_id from ranks order by rank_id limit 1');
  const month = 'fromDate=01-01-2024&toDate=31-01-2024';
  return {
    'GET /api/users/walletHistory': 'transactionType=wallet_recharge',
    'GET /api/users/downline': `userId=${member.user_id}`,
    'GET /api/network/children': `userId=${member.user_id}`,
    'GET /api/users/getUsersByRank': `rankId=${rank.rank_id}`,
    'GET /api/wallets/adminRevenue': month,
    'GET /api/royalties/royaltyStats': month,
    'GET /api/rewards/rewardsDaily': month,
    'GET /api/tax/tds': 'year=2024&quarter=1',
    'GET /api/wallet/members/:userId/statement': month,
  };
}

describe('finding 7: no list is paged deeper than its first 10,000 rows', () => {
  it('every GET route whose query takes page and limit refuses page × limit beyond 10,000 with the same 400', async () => {
    const extra = await requiredQuery();
    const paged: string[] = [];
    for (const { method, url } of t.app.routeList) {
      if (method !== 'GET') continue;
      const path = url.replace(/:(\w+)/g, '1');
      // A route pages when its own query schema has `page`: page=0 is then refused by name.
      const probe = await get(`${path}?page=0`);
      if (probe.statusCode !== 400 || !(probe.json().errors ?? []).some((e: { path: string }) => e.path === 'querystring.page')) continue;
      const key = `${method} ${url}`;
      paged.push(key);
      const query = extra[key] ? `${extra[key]}&` : '';
      // 101 pages of 100 (the genealogy's largest page) reach row 10,100; 100 of them stop at 10,000.
      const deep = await get(`${path}?${query}page=101&limit=100`);
      expect({ key, status: deep.statusCode, body: deep.json() }).toEqual({ key, status: 400, body: { success: false, message: DEEP_PAGE_MESSAGE } });
      const last = await get(`${path}?${query}page=100&limit=100`);
      expect({ key, body: last.body }).not.toEqual({ key, body: expect.stringContaining(DEEP_PAGE_MESSAGE) });
    }
    expect(paged).toEqual(expect.arrayContaining([
      'GET /api/users/getAllusers', 'GET /api/users/walletHistory', 'GET /api/wallet/balances', 'GET /api/wallet/withdrawals',
      'GET /api/wallets/dailyPayout', 'GET /api/audit/logs', 'GET /api/users/membership', 'GET /api/banks/getAllBanks',
    ]));
  });

  it("the report's requests: walletHistory at page 1,600 of 500 and page 1,000,000 are refused, page 20 of 500 is served", async () => {
    for (const page of [1600, 1_000_000]) {
      const res = await get(`/api/users/walletHistory?transactionType=wallet_recharge&page=${page}&limit=500`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: DEEP_PAGE_MESSAGE });
    }
    const last = await get('/api/users/walletHistory?transactionType=wallet_recharge&page=20&limit=500');
    expect(last.statusCode).toBe(200);
    expect(last.json()).toMatchObject({ success: true, page: 20, limit: 500 });
    // The ceiling on a page's size stays as it was.
    expect((await get('/api/users/walletHistory?transactionType=wallet_recharge&limit=501')).statusCode).toBe(400);
  });
});

describe('heavy requests take turns (/api/health stays responsive)', () => {
  it('large pages and CSV exports all answer, one after another and many at once: every slot is given back', async () => {
    const heavy = ['/api/users/walletHistory.csv', '/api/users/getAllusers?limit=500', '/api/audit/logs.csv', '/api/wallet/balances?limit=200'];
    for (let i = 0; i < 3; i++) {
      for (const url of heavy) expect((await get(url)).statusCode).toBe(200);
    }
    const together = await Promise.all(Array.from({ length: 12 }, (_, i) => get(heavy[i % heavy.length])));
    expect(together.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });
});

/** A migrated database of its own on the PostgreSQL server, for a pool with a chosen size and timeout. */
async function ownPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL!;
  const name = `bo_bounded_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

describe('statement timeout (STATEMENT_TIMEOUT_MS)', () => {
  it('a cancelled query is answered 503 with a plain message, not a bare 500', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    // The very error PostgreSQL raises when statement_timeout cancels a query (SQLSTATE 57014).
    app.get('/slow', async () => t.database.query(`do $$ begin raise exception using errcode = 'query_canceled'; end $$`));
    try {
      const res = await app.inject({ method: 'GET', url: '/slow' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        message: 'The database took too long to answer this request and it was stopped: narrow the filters, or try again in a moment',
      });
    } finally {
      await app.close();
    }
  });

  // PGlite is one connection inside this process and has no statement timeout to set.
  it.skipIf(testDbKind !== 'postgres')('cancels request work past the timeout, but never migrations or the start-up lock', async () => {
    const own = await ownPostgres();
    const database = await openPostgres(own.url, 2, 300);
    const locker = new pg.Client({ connectionString: own.url });
    let app: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      await database.migrate();
      await ensureReferenceData(database);
      await ensureAdmin(database, ADMIN_EMAIL, ADMIN_PASSWORD, () => ADMIN_PASSWORD);
      await expect(database.query('select pg_sleep(1)')).rejects.toMatchObject({ code: '57014' });

      app = await buildApp({ config: { ...loadConfig({}), webDir: '/nonexistent', statementTimeoutMs: 300 }, database });
      const login = await app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
      const auth = bearer(login.json().data.token);
      await locker.connect();
      // Another session holds the wallet totals for longer than the timeout: the request waits, then is stopped.
      await locker.query('begin');
      await locker.query('lock table ledger_totals in access exclusive mode');
      const slow = await app.inject({ method: 'GET', url: '/api/wallet/summary', headers: auth });
      expect(slow.statusCode).toBe(503);
      expect(slow.json().message).toMatch(/^The database took too long to answer this request/);
      await locker.query('commit');
      expect((await app.inject({ method: 'GET', url: '/api/wallet/summary', headers: auth })).statusCode).toBe(200);

      // A second server copy waits for the start-up lock as long as the first one migrates.
      await locker.query('select pg_advisory_lock(80092026)');
      const waited = database.exclusive(async () => 'bootstrapped');
      // Release only once the second copy has been waiting for the lock well past the 300 ms statement timeout (by the server's clock).
      await vi.waitFor(async () => {
        const { rows } = await locker.query(
          `select 1 from pg_locks where locktype = 'advisory' and not granted and now() - waitstart > interval '800 milliseconds'
              and database = (select oid from pg_database where datname = current_database())`,
        );
        expect(rows).toHaveLength(1);
      }, { timeout: 20_000, interval: 100 });
      await locker.query('select pg_advisory_unlock(80092026)');
      await expect(waited).resolves.toBe('bootstrapped');
      // Migrations run on their own connection, without the timeout: a statement longer than it passes.
      await expect(database.migrate()).resolves.toBeUndefined();
    } finally {
      await app?.close();
      await locker.end().catch(() => {});
      await database.close();
      await own.drop();
    }
  });
});

describe('/api/health while the request pool is busy', () => {
  it('answers from the database while every pooled connection is taken by slow queries', async () => {
    if (testDbKind !== 'postgres') {
      // PGlite: one connection in this process; health answers by the database being open.
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.json()).toEqual({ success: true, status: 'ok', database: 'pglite' });
      return;
    }
    const own = await ownPostgres();
    let database: Database | undefined;
    try {
      database = await openPostgres(own.url, 1);
      const app = await buildApp({ config: { ...loadConfig({}), webDir: '/nonexistent' }, database });
      let heavyDone = false;
      // The pool's only connection is busy for a second, with more work queued behind it.
      const heavy = Promise.all([database.query('select pg_sleep(1)'), database.query('select pg_sleep(0.5)')]).then(() => {
        heavyDone = true;
      });
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ success: true, status: 'ok', database: 'postgres' });
      expect(heavyDone).toBe(false);
      await heavy;
      await app.close();
    } finally {
      await database?.close();
      await own.drop();
    }
  });
});
