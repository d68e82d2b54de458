import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { newMember, moneyHeaders } from '../modules/wallet/money-test-kit.ts';
import { bearer, createTestApp, testDbKind, type TestContext } from '../test/harness.ts';

/** GET /metrics (issue 23): Prometheus text for operators, behind METRICS_TOKEN and/or METRICS_ALLOW. */
const TOKEN = 'scrape-token-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format, one sample a line: `name{a="1",b="2"} value`; comments skipped. */
function parse(text: string): Sample[] {
  return text.split('\n').filter((l) => l && !l.startsWith('#')).map((line) => {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    return { name: m[1], labels, value: Number(m[3]) };
  });
}

/** The samples of a metric whose labels include `labels`. */
function find(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = find(samples, name, labels);
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

describe('GET /metrics without METRICS_TOKEN or METRICS_ALLOW', () => {
  it('does not exist: 404 like any unknown path, and the OpenAPI document does not list it', async () => {
    const t = await createTestApp();
    try {
      for (const headers of [{}, bearer(TOKEN)]) {
        const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Route GET /metrics not found' });
      }
    } finally {
      await t.close();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN } });
    admin = await t.login();
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return parse(res.body);
  };

  it('answers 401 without the token or with a wrong one, and is not in the OpenAPI document', async () => {
    for (const headers of [{}, bearer('scrape-token-0123456780'), bearer('short'), { authorization: `Basic ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toEqual({ success: false, message: 'The metrics need the bearer token from METRICS_TOKEN' });
    }
    // An operator's session token is no metrics token; the path's other spellings are checked alike.
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(admin) })).statusCode).toBe(401);
    for (const [method, url] of [['HEAD', '/metrics'], ['GET', '/metrics/'], ['GET', '/metrics?x=1']] as const) {
      expect((await t.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
      expect((await t.app.inject({ method, url, headers: bearer(TOKEN) })).statusCode, `${method} ${url}`).toBe(200);
    }
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).not.toContain('/metrics');
    expect(Object.keys(docs.json().paths)).toContain('/api/users/getAllusers');
  });

  it('counts and times each request under its route pattern, method and status code', async () => {
    const before = await scrape();
    const counted = (samples: Sample[], route: string, status: string) =>
      value(samples, 'backoffice_http_requests_total', { route, method: 'GET', status_code: status }) ?? 0;
    const users = '/api/users/getAllusers';
    const rank = '/api/ranks/getRankById/:id';
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ method: 'GET', url: `${users}?page=1&limit=25`, headers: bearer(admin) })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: `${users}?page=1&limit=25` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/ranks/getRankById/100001', headers: bearer(admin) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/no/such/route?x=1' })).statusCode).toBe(404);

    const after = await scrape();
    expect(counted(after, users, '200') - counted(before, users, '200')).toBe(3);
    expect(counted(after, users, '401') - counted(before, users, '401')).toBe(1);
    expect(counted(after, rank, '200') - counted(before, rank, '200')).toBe(1);
    expect(counted(after, 'unmatched', '404') - counted(before, 'unmatched', '404')).toBe(1);
    // Never a raw address: no query string, no id, no unknown path; the scrape itself is not counted.
    const routes = new Set(find(after, 'backoffice_http_requests_total').map((s) => s.labels.route));
    expect([...routes].filter((r) => /[?]|100001|no\/such/.test(r))).toEqual([]);
    expect(routes).not.toContain('/metrics');

    // The latency histogram: cumulative buckets up to +Inf, whose count is every answer of the route.
    const buckets = find(after, 'backoffice_http_request_duration_seconds_bucket', { route: users, method: 'GET' });
    expect(buckets.map((b) => b.labels.le)).toEqual(['0.005', '0.01', '0.025', '0.04', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '+Inf']);
    const counts = buckets.map((b) => b.value);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const all = value(after, 'backoffice_http_request_duration_seconds_count', { route: users, method: 'GET' });
    expect(counts.at(-1)).toBe(all);
    expect(all).toBe(counted(after, users, '200') + counted(after, users, '401'));
    expect(value(after, 'backoffice_http_request_duration_seconds_sum', { route: users, method: 'GET' })).toBeGreaterThan(0);
  });

  it('reports the process: event-loop delay, CPU, memory', async () => {
    const samples = await scrape();
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'nodejs_eventloop_lag_seconds', 'process_cpu_seconds_total', 'process_resident_memory_bytes']) {
      expect(find(samples, name).length, name).toBe(1);
    }
    expect(value(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
  });

  it('reports the database pool on PostgreSQL (none on PGlite, which has no pool)', async () => {
    const samples = await scrape();
    if (testDbKind === 'postgres') {
      expect(value(samples, 'backoffice_db_pool_max_connections')).toBe(5); // the harness's pool
      expect(value(samples, 'backoffice_db_pool_connections')).toBeGreaterThan(0);
      expect(value(samples, 'backoffice_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(value(samples, 'backoffice_db_pool_waiting_requests')).toBe(0);
      const acquires = value(samples, 'backoffice_db_pool_acquires_total')!;
      expect(acquires).toBeGreaterThan(0);
      expect(value(samples, 'backoffice_db_pool_acquire_wait_seconds_total')).toBeGreaterThan(0);
      // Each request borrows a connection at least once (its session lookup).
      await t.app.inject({ method: 'GET', url: '/api/users/getAllusers?page=1&limit=25', headers: bearer(admin) });
      expect(value(await scrape(), 'backoffice_db_pool_acquires_total')).toBeGreaterThan(acquires);
    } else {
      expect(samples.filter((s) => s.name.startsWith('backoffice_db_pool_'))).toEqual([]);
    }
  });

  it('reports the approvals waiting, by kind, with the age of the oldest', async () => {
    const none = await scrape();
    expect(value(none, 'backoffice_metrics_database_ok')).toBe(1);
    expect(value(none, 'backoffice_approvals_waiting', { kind: 'wallet_recharge' })).toBe(0);
    expect(value(none, 'backoffice_approvals_oldest_waiting_seconds', { kind: 'wallet_recharge' })).toBe(0);

    // Two recharges above the ₹10,000 threshold wait for a second operator.
    const member = await newMember(t.database);
    const ids: number[] = [];
    for (const amount of [20_000, 30_000]) {
      const held = await t.app.inject({
        method: 'POST', url: '/api/wallets/userWalletRecharge', headers: moneyHeaders(admin),
        payload: { userId: member, amount, transactionType: 'wallet_recharge' },
      });
      expect(held.statusCode).toBe(202);
      ids.push(held.json().data.approvalId);
    }
    // The first was filed two hours ago.
    await t.database.query(`update money_requests set created_at = now() - interval '2 hours' where id = $1`, [ids[0]]);
    const waiting = await scrape();
    expect(value(waiting, 'backoffice_approvals_waiting', { kind: 'wallet_recharge' })).toBe(2);
    expect(value(waiting, 'backoffice_approvals_waiting', { kind: 'run_reversal' })).toBe(0);
    const oldest = value(waiting, 'backoffice_approvals_oldest_waiting_seconds', { kind: 'wallet_recharge' })!;
    expect(oldest).toBeGreaterThanOrEqual(7200);
    expect(oldest).toBeLessThan(7200 + 60);

    // Rejected, it no longer waits; the other one is now the oldest.
    await t.database.query(`update money_requests set status = 'rejected', decided_at = now() where id = $1`, [ids[0]]);
    const after = await scrape();
    expect(value(after, 'backoffice_approvals_waiting', { kind: 'wallet_recharge' })).toBe(1);
    expect(value(after, 'backoffice_approvals_oldest_waiting_seconds', { kind: 'wallet_recharge' })).toBeLessThan(60);
  });

  it('reports the bank transfers in transit (lines, rupees, the oldest\u2019s age) and the batches waiting to be released', async () => {
    const none = await scrape();
    expect(value(none, 'backoffice_bank_transfers_in_transit')).toBe(0);
    expect(value(none, 'backoffice_bank_transfers_in_transit_rupees')).toBe(0);
    expect(value(none, 'backoffice_bank_transfers_oldest_unconfirmed_seconds')).toBe(0);
    expect(value(none, 'backoffice_bank_batches_waiting', { status: 'draft' })).toBe(0);
    expect(value(none, 'backoffice_bank_batches_waiting', { status: 'pending_release' })).toBe(0);

    // A released batch of three lines (₹600.50): one settled, two in transit since 4 days and 1 hour ago;
    // a draft and a batch waiting for its release approval.
    const [released, draft, pending] = await t.database.query<{ id: number }>(`
      insert into bank_batches (status, created_by, lines, total_paise, settled_lines, settled_paise, released_at) values
        ('released', 1, 3, 60050, 1, 20000, now() - interval '4 days'), ('draft', 1, 0, 0, 0, 0, null), ('pending_release', 1, 1, 100, 0, 0, null)
      returning id`);
    // Each line's reference is BT<batch>-<line id> (drizzle/0036's CHECK).
    await t.database.query(`
      with v (entry, amount, name, status, since, utr) as (values
             (-901, 20000, 'A', 'settled', now() - interval '4 days', 'UTR1'),
             (-902, 30000, 'B', 'in_transit', now() - interval '4 days', null),
             (-903, 10050, 'C', 'in_transit', now() - interval '1 hour', null)),
           ids as (select v.*, nextval(pg_get_serial_sequence('bank_transfer_lines', 'id')) as id from v)
      insert into bank_transfer_lines (id, batch_id, user_id, ledger_entry_id, amount_paise, beneficiary_name, account_number, ifsc, reference, status, in_transit_since, utr)
      select id, $1, 1, entry, amount, name, '1', 'HDFC0000001', 'BT' || $1::int8 || '-' || id, status, since, utr from ids`, [released.id]);
    // The lines in transit are listed in bank_in_transit (drizzle/0037), as the release lists them.
    await t.database.query(`
      insert into bank_in_transit (line_id, batch_id, amount_paise, since)
      select id, batch_id, amount_paise, in_transit_since from bank_transfer_lines where batch_id = $1 and status = 'in_transit'`, [released.id]);
    try {
      const samples = await scrape();
      expect(value(samples, 'backoffice_bank_transfers_in_transit')).toBe(2);
      expect(value(samples, 'backoffice_bank_transfers_in_transit_rupees')).toBe(400.5);
      const oldest = value(samples, 'backoffice_bank_transfers_oldest_unconfirmed_seconds')!;
      expect(oldest).toBeGreaterThanOrEqual(4 * 86400);
      expect(oldest).toBeLessThan(4 * 86400 + 60);
      expect(value(samples, 'backoffice_bank_batches_waiting', { status: 'draft' })).toBe(1);
      expect(value(samples, 'backoffice_bank_batches_waiting', { status: 'pending_release' })).toBe(1);

      // The bank confirms the older line: the other is now the oldest.
      await t.database.query(`
        with s as (update bank_transfer_lines set status = 'settled', utr = 'UTR2' where batch_id = $1 and ledger_entry_id = -902 returning id)
        delete from bank_in_transit where line_id in (select id from s)`, [released.id]);
      await t.database.query(`update bank_batches set settled_lines = 2, settled_paise = 50000 where id = $1`, [released.id]);
      const after = await scrape();
      expect(value(after, 'backoffice_bank_transfers_in_transit')).toBe(1);
      expect(value(after, 'backoffice_bank_transfers_in_transit_rupees')).toBe(100.5);
      expect(value(after, 'backoffice_bank_transfers_oldest_unconfirmed_seconds')).toBeLessThan(3600 + 60);
    } finally {
      await t.database.query(`delete from bank_in_transit where batch_id = $1`, [released.id]);
      await t.database.query(`delete from bank_transfer_lines where batch_id = $1`, [released.id]);
      await t.database.query(`delete from bank_batches where id = any($1::int8[])`, [[released.id, draft.id, pending.id]]);
    }
  });

  it('reports the income runs in progress with their done and total; a finished run leaves no series', async () => {
    expect(value(await scrape(), 'backoffice_income_runs_in_progress')).toBe(0);
    // A daily payout part-way (as the engine leaves it between chunks), a finished one, and a reversal under way.
    const [running, completed, reversing] = await t.database.query<{ run_id: number }>(`
      insert into income_runs (kind, period_start, period_end, status, done, total, started_at, state) values
        ('daily_payout', date '2021-03-01', date '2021-03-01', 'running', 40000, 100000, now() - interval '5 minutes', '{}'),
        ('daily_payout', date '2021-02-28', date '2021-02-28', 'completed', 100000, 100000, now(), '{}'),
        ('royalty', date '2021-01-01', date '2021-01-31', 'reversing', 900, 900, now(), '{"reversal": {"members": 250}}')
      returning run_id`);
    const samples = await scrape();
    expect(value(samples, 'backoffice_income_runs_in_progress')).toBe(2);
    const labels = { run_id: String(running.run_id), kind: 'daily_payout', status: 'running' };
    expect(value(samples, 'backoffice_income_run_done', labels)).toBe(40000);
    expect(value(samples, 'backoffice_income_run_total', labels)).toBe(100000);
    const started = value(samples, 'backoffice_income_run_started_timestamp_seconds', labels)!;
    expect(Math.abs(Date.now() / 1000 - 300 - started)).toBeLessThan(60);
    expect(find(samples, 'backoffice_income_run_done', { run_id: String(completed.run_id) })).toEqual([]);
    const rev = { run_id: String(reversing.run_id), kind: 'royalty' };
    expect(value(samples, 'backoffice_income_run_done', { ...rev, status: 'reversing' })).toBe(900);
    expect(value(samples, 'backoffice_income_run_reversed_members', rev)).toBe(250);
    expect(find(samples, 'backoffice_income_run_reversed_members', { run_id: String(running.run_id) })).toEqual([]);

    // The next chunk moves it on; once completed, its series are gone.
    await t.database.query(`update income_runs set done = 60000 where run_id = $1`, [running.run_id]);
    expect(value(await scrape(), 'backoffice_income_run_done', labels)).toBe(60000);
    await t.database.query(`update income_runs set status = 'completed', done = total, finished_at = now() where run_id = $1`, [running.run_id]);
    const done = await scrape();
    expect(value(done, 'backoffice_income_runs_in_progress')).toBe(1);
    expect(find(done, 'backoffice_income_run_done', { run_id: String(running.run_id) })).toEqual([]);
    await t.database.query(`delete from income_runs where run_id = any($1::int8[])`, [[running.run_id, completed.run_id, reversing.run_id]]);
  });
});

describe('GET /metrics with METRICS_ALLOW', () => {
  it('lets the listed addresses and ranges in (IPv4-mapped IPv6 too) and answers 403 to any other', async () => {
    const { metricsAllow } = loadConfig({ METRICS_ALLOW: '127.0.0.1, 10.1.0.0/16,fd00::/8' });
    const t = await createTestApp({ config: { metricsAllow } });
    try {
      const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
      for (const address of ['127.0.0.1', '10.1.2.3', '10.1.255.254', '::ffff:10.1.2.3', 'fd12::1']) {
        const res = await from(address);
        expect(res.statusCode, address).toBe(200);
        expect(res.body).toContain('# TYPE backoffice_http_requests_total counter');
      }
      for (const address of ['127.0.0.2', '10.2.0.1', '192.168.1.1', '::1', 'fe80::1']) {
        const res = await from(address, bearer(TOKEN));
        expect(res.statusCode, address).toBe(403);
        expect(res.json()).toEqual({ success: false, message: 'This address may not read the metrics' });
      }
    } finally {
      await t.close();
    }
  });

  it('with METRICS_TOKEN too, either grants: an allowed address without the token, or the token from anywhere', async () => {
    const config = loadConfig({ METRICS_ALLOW: '10.1.0.0/16', METRICS_TOKEN: TOKEN });
    const t = await createTestApp({ config: { metricsAllow: config.metricsAllow, metricsToken: config.metricsToken } });
    try {
      const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
      expect((await from('10.1.0.9')).statusCode).toBe(200);
      expect((await from('192.168.1.1', bearer(TOKEN))).statusCode).toBe(200);
      // Elsewhere: no token is refused for the address, a wrong token for the token.
      expect((await from('192.168.1.1')).statusCode).toBe(403);
      const wrong = await from('192.168.1.1', bearer('scrape-token-wrong-wrong'));
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().success).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('METRICS_TOKEN and METRICS_ALLOW settings', () => {
  it('are parsed, and refused with the reason when they cannot be right', () => {
    expect(loadConfig({})).toMatchObject({ metricsToken: undefined, metricsAllow: [] });
    expect(loadConfig({ METRICS_TOKEN: TOKEN, METRICS_ALLOW: '10.0.0.0/8,::1' })).toMatchObject({
      metricsToken: TOKEN,
      metricsAllow: [{ network: '10.0.0.0', prefix: 8, family: 'ipv4' }, { network: '::1', prefix: 128, family: 'ipv6' }],
    });
    expect(() => loadConfig({ METRICS_TOKEN: 'too-short' })).toThrow('METRICS_TOKEN must be 16 to 256 characters without spaces');
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow('METRICS_TOKEN');
    for (const bad of ['localhost', '10.0.0.0/33', '10.0.0.0/8/8', '::1/129', '10.0.0.0/', '10.0.0.0/x', '300.1.1.1']) {
      expect(() => loadConfig({ METRICS_ALLOW: `127.0.0.1,${bad}` }), bad).toThrow(`METRICS_ALLOW: "${bad}" is not an IP address or CIDR range`);
    }
  });
});
