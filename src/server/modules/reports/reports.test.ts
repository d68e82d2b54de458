import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInApp, type TestContext } from '../../test/harness.ts';
import { moneyInvariantsAfterEach, tokenWithoutPermissions } from '../wallet/money-test-kit.ts';
import { sql } from 'drizzle-orm';
import { postEntries, postEntry } from '../../db/books.ts';

let t: TestContext;
let token: string;
/** A report's ledger rows (issue 24): the batches' credits and their runs' deduction lines. */
const NET_ROWS = `ledger_entries l
  left join income_runs r on l.batch_id is null and l.kind in ('tds', 'admin_charge') and r.run_id = l.run_id
  join income_batches b on b.batch_id = coalesce(l.batch_id, r.batch_id)`;

beforeAll(async () => {
  ({ t, token } = await signedInApp({ members: 40 }));
});
afterAll(() => t.close());
moneyInvariantsAfterEach(() => t.database);

/** dd-mm-yyyy of today in India time, shifted by `days`. */
function wireDay(days: number): string {
  const d = new Date(Date.now() + 5.5 * 3600_000 + days * 86400_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${d.getUTCFullYear()}`;
}
const WIDE = `fromDate=${wireDay(-120)}&toDate=${wireDay(0)}`;
const get = (url: string, headers = bearer(token)) => t.app.inject({ method: 'GET', url, headers });

describe('GET /api/wallets/adminRevenue', () => {
  it('pages the membership fees, shown positive, with total and count over the whole range', async () => {
    const res = await get(`/api/wallets/adminRevenue?${WIDE}&limit=3`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const [expected] = await t.database.query<{ n: number; paise: string }>(
      `select count(*)::int as n, (-sum(amount_paise))::text as paise from ledger_entries where kind = 'membership_fee'`);
    expect(expected.n).toBeGreaterThan(3);
    expect(body).toMatchObject({ success: true, count: expected.n, totalAmount: Number(expected.paise) / 100, page: 1, limit: 3 });
    expect(body.data).toHaveLength(3);
    expect(body.data[0]).toEqual({ id: expect.any(Number), dateTime: expect.any(String), amount: expect.any(Number), userName: expect.any(String), userId: expect.any(Number) });
    expect(body.data.every((r: { amount: number }) => r.amount > 0)).toBe(true);
    expect(body.data[0].dateTime >= body.data[1].dateTime).toBe(true);
    expect(body.daily.reduce((s: number, d: { amount: number }) => s + d.amount, 0)).toBeCloseTo(body.totalAmount, 2);
  });

  it('filters by user name (totals follow the filter) and gives an empty range zeroes', async () => {
    const [one] = await t.database.query<{ full_name: string }>(
      `select u.full_name from ledger_entries l join users u using (user_id) where l.kind = 'membership_fee' limit 1`);
    const body = (await get(`/api/wallets/adminRevenue?${WIDE}&userName=${encodeURIComponent(one.full_name)}`)).json();
    expect(body.count).toBeGreaterThan(0);
    expect(body.data.every((r: { userName: string }) => r.userName === one.full_name)).toBe(true);
    const empty = (await get('/api/wallets/adminRevenue?fromDate=01-01-2001&toDate=31-01-2001')).json();
    expect(empty).toMatchObject({ data: [], count: 0, totalAmount: 0, daily: [] });
  });

  it('keeps the totals on a page past the end, with and without a name filter (issue 23: one statement, the totals ride on the rows)', async () => {
    const [one] = await t.database.query<{ full_name: string }>(
      `select u.full_name from ledger_entries l join users u using (user_id) where l.kind = 'membership_fee' limit 1`);
    for (const filter of ['', `&userName=${encodeURIComponent(one.full_name)}`]) {
      const first = (await get(`/api/wallets/adminRevenue?${WIDE}${filter}&limit=3`)).json();
      const past = (await get(`/api/wallets/adminRevenue?${WIDE}${filter}&limit=3&page=3000`)).json();
      expect(first.count).toBeGreaterThan(0);
      expect(past).toMatchObject({ data: [], count: first.count, totalAmount: first.totalAmount, daily: first.daily });
    }
  });

  it('sorts by amount and by time, either direction, without repeating a row across pages', async () => {
    const [{ n }] = await t.database.query<{ n: number }>(`select count(*)::int as n from ledger_entries where kind = 'membership_fee'`);
    const all = async (sort: string) => {
      const rows: { id: number; amount: number; dateTime: string }[] = [];
      for (let page = 1; rows.length < n; page += 1) rows.push(...(await get(`/api/wallets/adminRevenue?${WIDE}&sort=${sort}&limit=9&page=${page}`)).json().data);
      return rows;
    };
    for (const [sort, value, dir] of [['amount', 'amount', 1], ['-amount', 'amount', -1], ['dateTime', 'dateTime', 1]] as const) {
      const rows = await all(sort);
      expect(new Set(rows.map((r) => r.id)).size, sort).toBe(n);
      const values = rows.map((r) => r[value]);
      expect(values, sort).toEqual([...values].sort((a, b) => (a < b ? -dir : a > b ? dir : 0)));
    }
    const byName = (await get(`/api/wallets/adminRevenue?${WIDE}&sort=userName&limit=500`)).json().data.map((r: { userName: string }) => r.userName.toLowerCase());
    expect(byName).toEqual([...byName].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    expect((await get(`/api/wallets/adminRevenue?${WIDE}&sort=member`)).statusCode).toBe(400);
  });

  it('answers 400 for missing, malformed or reversed dates; 401; 403', async () => {
    expect((await get('/api/wallets/adminRevenue')).json().message).toContain('fromDate is required (dd-mm-yyyy)');
    expect((await get('/api/wallets/adminRevenue?fromDate=01-01-2026')).json().message).toContain('toDate is required (dd-mm-yyyy)');
    expect((await get('/api/wallets/adminRevenue?fromDate=2026-01-01&toDate=31-01-2026')).statusCode).toBe(400);
    expect((await get('/api/wallets/adminRevenue?fromDate=30-02-2026&toDate=31-03-2026')).json().message).toContain('real date');
    expect((await get('/api/wallets/adminRevenue?fromDate=31-01-2026&toDate=01-01-2026')).json().message).toContain('fromDate must not be after toDate');
    expect((await t.app.inject({ method: 'GET', url: `/api/wallets/adminRevenue?${WIDE}` })).statusCode).toBe(401);
    expect((await get(`/api/wallets/adminRevenue?${WIDE}`, bearer(await tokenWithoutPermissions(t)))).statusCode).toBe(403);
  });

  it('streams the whole range as CSV', async () => {
    const res = await get(`/api/wallets/adminRevenue.csv?${WIDE}`);
    expect(res.statusCode).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('ID,Date & Time,Amount,User Name,User ID');
    const [n] = await t.database.query<{ n: number }>(`select count(*)::int as n from ledger_entries where kind = 'membership_fee'`);
    expect(lines).toHaveLength(n.n + 1);
    expect((await get('/api/wallets/adminRevenue.csv')).statusCode).toBe(400);
  });

  it('exports every fee when a 1,000-row batch ends inside a group of fees written at the same microsecond', async () => {
    // One transaction's fees share its time to the microsecond; the export's keyset went on from the
    // last row's time as shown (milliseconds), which is earlier than that row's own, so the rest of
    // the group fell out of the next batch.
    const [payer] = await t.database.query<{ user_id: number }>(`select user_id from users where level > 0 and deleted_at is null order by user_id limit 1`);
    const userId = Number(payer.user_id);
    await t.database.db.transaction((tx) => postEntry(tx, { userId, kind: 'wallet_recharge', amountPaise: 1_010_000, system: 'test' }));
    const before = await t.database.query<{ n: number }>(`select count(*)::int as n from ledger_entries where kind = 'membership_fee'`);
    // The group's time has microseconds that milliseconds cannot hold: PGlite's clock keeps
    // milliseconds only, so the test sets it (past the ledger's immutability trigger; same second).
    await t.database.db.transaction(async (tx) => {
      await postEntries(tx, { userId, system: 'test' }, Array.from({ length: 1005 }, () => ({ kind: 'membership_fee' as const, amountPaise: -1000 })));
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update ledger_entries set created_at = date_trunc('second', created_at) + interval '0.123456 second'
                            where kind = 'membership_fee' and created_at = now()`);
    });
    const [group] = await t.database.query<{ n: number }>(`
      select count(*)::int as n from ledger_entries where kind = 'membership_fee' and extract(microseconds from created_at)::int % 1000 = 456`);
    expect(group.n).toBe(1005);
    const res = await get(`/api/wallets/adminRevenue.csv?${WIDE}`);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toHaveLength(before[0].n + 1005 + 1);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(before[0].n + 1005);
  });
});

describe('GET /api/royalties/royaltyStats', () => {
  it('gives the batches with receivers, users grouped with rank and level, and totals', async () => {
    const res = await get(`/api/royalties/royaltyStats?${WIDE}&limit=5`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const [expected] = await t.database.query<{ paise: string; n: number; users: number }>(`
      select sum(amount_paise)::text as paise, count(*)::int as n, count(distinct user_id)::int as users
        from ledger_entries where kind = 'royalty'`);
    expect(body).toMatchObject({ success: true, totalAmount: Number(expected.paise) / 100, transactions: expected.n, totalUsers: expected.users });
    expect(body.users.length).toBe(Math.min(5, expected.users));
    expect(body.users[0]).toEqual({
      userId: expect.any(Number), userName: expect.any(String), rankName: expect.any(String),
      level: expect.any(Number), amount: expect.any(Number), transactions: expect.any(Number),
    });
    const batch = body.data.find((b: { receivers: unknown[] }) => b.receivers.length > 0);
    expect(batch).toMatchObject({ kind: 'royalty', source: 'Royalty Income', status: 'Paid', runDate: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    expect(batch.receivers[0]).toEqual({
      userId: expect.any(Number), userName: expect.any(String), amount: expect.any(Number),
      rankName: expect.any(String), dateTime: expect.any(String), level: expect.any(Number),
    });
    const pageUsers = new Set(body.users.map((u: { userId: number }) => u.userId));
    for (const b of body.data) for (const r of b.receivers) expect(pageUsers.has(r.userId)).toBe(true);
  });

  it('validates its range and streams a CSV of every receiver', async () => {
    expect((await get('/api/royalties/royaltyStats?fromDate=01-13-2026&toDate=01-01-2027')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/royalties/royaltyStats?${WIDE}` })).statusCode).toBe(401);
    const csv = await get(`/api/royalties/royaltyStats.csv?${WIDE}`);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Batch ID,Source,Run Date,User ID,User Name,Rank,Level,Amount,Date & Time');
    const [n] = await t.database.query<{ n: number }>(`select count(*)::int as n from ledger_entries where kind = 'royalty'`);
    expect(lines).toHaveLength(n.n + 1);
  });
});

/** The calendar months (first day, last day) of the last four months, in India time. */
function lastMonths(): { from: string; to: string; fromWire: string; toWire: string }[] {
  const now = new Date(Date.now() + 5.5 * 3600_000);
  return [0, 1, 2, 3].map((back) => {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    const wire = (d: Date) => iso(d).split('-').reverse().join('-');
    return { from: iso(first), to: iso(last), fromWire: wire(first), toWire: wire(last) };
  });
}

describe('whole months come from the income rollups, other ranges from the ledger: the same answers', () => {
  it.each([
    ['royalty', '/api/royalties/royaltyStats', null],
    ['reward', '/api/rewards/rewardsDaily', 'dailyPayout'],
    ['reward', '/api/rewards/rewardsDaily', 'monthlyReward'],
  ] as const)('%s %s %s', async (kind, path, type) => {
    const months = lastMonths();
    // Each of the last four months, three months at once, and a month less its last day.
    const ranges = [...months, { ...months[0], from: months[2].from, fromWire: months[2].fromWire },
      { ...months[1], to: `${months[1].to.slice(0, 8)}${String(Number(months[1].to.slice(8)) - 1).padStart(2, '0')}`,
        toWire: `${String(Number(months[1].toWire.slice(0, 2)) - 1).padStart(2, '0')}${months[1].toWire.slice(2)}` }];
    let checked = 0;
    for (const range of ranges) {
      // Issue 24: what members received, net of the runs' TDS and admin charge lines (no reversals here).
      const expected = await t.database.query<{ user_id: number; paise: string; n: number }>(`
        select l.user_id, sum(l.amount_paise)::text as paise, count(*) filter (where l.amount_paise > 0)::int as n
          from ${NET_ROWS}
         where b.kind = $1 and ($2::text is null or b.reward_type = $2) and b.run_date between $3::date and $4::date
         group by l.user_id having sum(l.amount_paise) <> 0 order by sum(l.amount_paise) desc, l.user_id`, [kind, type, range.from, range.to]);
      const url = `${path}?fromDate=${range.fromWire}&toDate=${range.toWire}&limit=7&page=2${type ? `&transactionType=${type}` : ''}`;
      const body = (await get(url)).json();
      const paise = expected.reduce((a, r) => a + Number(r.paise), 0);
      expect(body, url).toMatchObject({
        success: true, totalUsers: expected.length, transactions: expected.reduce((a, r) => a + r.n, 0), totalAmount: paise / 100,
      });
      expect(body.users.map((u: { userId: number; amount: number; transactions: number }) => [u.userId, u.amount, u.transactions]), url)
        .toEqual(expected.slice(7, 14).map((r) => [Number(r.user_id), Number(r.paise) / 100, r.n]));
      // Smallest income first: exactly the reverse order (amount ascending, then user id descending).
      const up = (await get(`${url}&sort=amount`)).json();
      expect(up.users.map((u: { userId: number }) => u.userId), `${url}&sort=amount`)
        .toEqual([...expected].reverse().slice(7, 14).map((r) => Number(r.user_id)));
      if (expected.length > 0) checked += 1;
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('GET /api/rewards/rewardsDaily', () => {
  it.each(['dailyPayout', 'monthlyReward', 'referral_bonus_10_users'])('reports reward type %s only', async (type) => {
    const body = (await get(`/api/rewards/rewardsDaily?${WIDE}&transactionType=${type}`)).json();
    const [expected] = await t.database.query<{ paise: string; n: number }>(`
      select coalesce(sum(l.amount_paise), 0)::text as paise, count(*) filter (where l.amount_paise > 0)::int as n
        from ${NET_ROWS} where b.kind = 'reward' and b.reward_type = $1`, [type]);
    expect(body.transactions).toBe(expected.n);
    expect(body.totalAmount).toBe(Number(expected.paise) / 100);
    expect(body.data.every((b: { rewardType: string }) => b.rewardType === type)).toBe(true);
  });

  it('issue 23: the receivers are the ledger\'s rows of the page\'s users (time to the millisecond in UTC); a page past the end keeps its totals', async () => {
    const url = `/api/rewards/rewardsDaily?${WIDE}&transactionType=dailyPayout&limit=5`;
    const body = (await get(`${url}&page=2`)).json();
    expect(body.users).toHaveLength(5);
    const batchIds = body.data.map((b: { batchId: number }) => b.batchId);
    const credits = await t.database.query<{ batch_id: number; user_id: number; amount_paise: number; created_at: Date; name: string; rank: string | null }>(`
      select l.batch_id, l.user_id, l.amount_paise, l.created_at, coalesce(u.username, u.full_name) as name, r.name as rank
        from ledger_entries l join users u on u.user_id = l.user_id left join ranks r on r.rank_id = u.rank_id
       where l.batch_id = any($1::int[]) and l.user_id = any($2::int8[]) order by l.created_at, l.id`,
    [batchIds, body.users.map((u: { userId: number }) => u.userId)]);
    expect(credits.length).toBeGreaterThan(0);
    const shown = body.data.flatMap((b: { batchId: number; receivers: { userId: number; userName: string; amount: number; rankName: string | null; dateTime: string }[] }) =>
      b.receivers.map((r) => [b.batchId, r.userId, r.userName, r.rankName, r.amount, r.dateTime]));
    const expected = batchIds.flatMap((id: number) => credits.filter((c) => c.batch_id === id)
      .map((c) => [id, Number(c.user_id), c.name, c.rank, Number(c.amount_paise) / 100, new Date(c.created_at).toISOString()]));
    expect(shown).toEqual(expected);
    const past = (await get(`${url}&page=200`)).json();
    expect(past).toMatchObject({ users: [], totalAmount: body.totalAmount, totalUsers: body.totalUsers, transactions: body.transactions, page: 200 });
    expect(past.data.map((b: { batchId: number; receivers: unknown[] }) => [b.batchId, b.receivers])).toEqual(batchIds.map((id: number) => [id, []]));
  });

  it('reports royaltyIncome from the royalty batches (the royalty runs\' credits), as Royalty Income does', async () => {
    for (const range of [WIDE, `fromDate=${lastMonths()[0].fromWire}&toDate=${lastMonths()[0].toWire}`]) {
      const body = (await get(`/api/rewards/rewardsDaily?${range}&transactionType=royaltyIncome&limit=5`)).json();
      const royalty = (await get(`/api/royalties/royaltyStats?${range}&limit=5`)).json();
      const [expected] = await t.database.query<{ paise: string; n: number }>(`
        select coalesce(sum(l.amount_paise), 0)::text as paise, count(*)::int as n
          from ledger_entries l join income_batches b using (batch_id)
         where b.kind = 'royalty' and b.run_date between $1::date and $2::date`,
      [range === WIDE ? '2000-01-01' : lastMonths()[0].from, range === WIDE ? '2100-01-01' : lastMonths()[0].to]);
      expect(body.transactions, range).toBe(expected.n);
      expect(body.totalAmount, range).toBe(Number(expected.paise) / 100);
      expect(body.data.every((b: { kind: string; source: string }) => b.kind === 'royalty' && b.source === 'Royalty Income')).toBe(true);
      expect({ ...body, page: 0 }).toEqual({ ...royalty, page: 0 });
    }
    expect(await t.database.query(`select 1 from income_batches where kind = 'royalty' limit 1`)).toHaveLength(1);
    const csv = await get(`/api/rewards/rewardsDaily.csv?${WIDE}&transactionType=royaltyIncome`);
    const [n] = await t.database.query<{ n: number }>(`
      select count(*)::int as n from ledger_entries l join income_batches b using (batch_id) where b.kind = 'royalty'`);
    expect(csv.body.replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(n.n + 1);
  });

  it('shows a daily payout run\'s batch (kind reward, reward type dailyPayout) under dailyPayout', async () => {
    const [member] = await t.database.query<{ user_id: number }>('select user_id from users where deleted_at is null order by user_id desc limit 1');
    const [run] = await t.database.query<{ run_id: number }>(`
      insert into income_runs (kind, period_start, period_end, status) values ('daily_payout', '2001-01-01', '2001-01-01', 'completed')
      returning run_id`);
    const [batch] = await t.database.query<{ batch_id: number }>(`
      insert into income_batches (kind, reward_type, run_date, run_id) values ('reward', 'dailyPayout', (now() at time zone 'Asia/Kolkata')::date, $1)
      returning batch_id`, [run.run_id]);
    await t.database.db.transaction((tx) => postEntry(tx, { userId: Number(member.user_id), kind: 'daily_payout', amountPaise: 12_345, batchId: batch.batch_id }));
    const body = (await get(`/api/rewards/rewardsDaily?${WIDE}&transactionType=dailyPayout&limit=100`)).json();
    const shown = body.data.find((b: { batchId: number }) => b.batchId === batch.batch_id);
    expect(shown).toMatchObject({ kind: 'reward', rewardType: 'dailyPayout', source: 'Daily Payout' });
    expect(shown.receivers).toEqual([expect.objectContaining({ userId: Number(member.user_id), amount: 123.45 })]);
  });

  it('defaults to dailyPayout, refuses an unknown type, answers 403 without reports_view', async () => {
    const byDefault = (await get(`/api/rewards/rewardsDaily?${WIDE}`)).json();
    expect(byDefault.data.every((b: { rewardType: string; source: string }) => b.rewardType === 'dailyPayout' && b.source === 'Daily Payout')).toBe(true);
    expect((await get(`/api/rewards/rewardsDaily?${WIDE}&transactionType=cashback`)).json().message).toContain('transactionType must be one of');
    expect((await get(`/api/rewards/rewardsDaily?${WIDE}`, bearer(await tokenWithoutPermissions(t)))).statusCode).toBe(403);
    const csv = await get(`/api/rewards/rewardsDaily.csv?${WIDE}&transactionType=monthlyReward`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="rewards-monthlyReward.csv"');
  });
});
