import { describe, expect, it } from 'vitest';
import { bookHistory, post } from '../../db/books.ts';
import { LEDGER_KIND_NAMES } from '../../../contract/ledger-kinds.ts';
import { LEDGER_KINDS } from '../../db/schema/money.ts';
import { bearer } from '../../test/harness.ts';
import { fourEyesSuite } from '../approvals/four-eyes-test-kit.ts';
import { newMember } from './money-test-kit.ts';

/**
 * Issue 24, item 1: a member's money on the member page — balance, recovery owed, earned to date
 * by kind (net of deductions and reversals), the membership, and the ledger with the other side of
 * each line, filtered, paged and exported.
 */
const { ctx, operator, recharge, approve, get } = fourEyesSuite(100_000_000);

type Line = { kind: string; paise: number; at: string; runId?: number; reversalOf?: number; actorId?: number; description?: string };

/** Ledger lines written straight into the ledger at chosen times, the balance kept equal to their sum. */
async function lines(userId: number, rows: Line[]): Promise<number[]> {
  const inserted = await ctx.t.database.query<{ id: string }>(
    `insert into ledger_entries (user_id, kind, amount_paise, description, created_at, run_id, reversal_of, actor_id, transfer_id)
     select $1, e.v->>'kind', (e.v->>'paise')::int8, coalesce(e.v->>'description', 'test'), (e.v->>'at')::timestamptz,
            (e.v->>'runId')::int8, (e.v->>'reversalOf')::int8, (e.v->>'actorId')::int8, nextval(pg_get_serial_sequence('transfers', 'id'))
       from jsonb_array_elements($2::jsonb) with ordinality as e(v, n)
      order by e.n
     returning id::text`,
    [userId, JSON.stringify(rows)]);
  await bookHistory(ctx.t.database.db);
  // The runs made by hand say what their own lines moved (the books check each run's totals).
  await ctx.t.database.query(`
    update income_runs r set gross_paise = l.credits, deductions_paise = l.debits
      from (select run_id, coalesce(sum(amount_paise) filter (where amount_paise > 0), 0) as credits,
                   coalesce(-sum(amount_paise) filter (where amount_paise < 0), 0) as debits
              from ledger_entries where run_id is not null and reversal_of is null group by run_id) l
     where r.run_id = l.run_id`);
  await ctx.t.database.query(
    'update users set balance_paise = (select sum(amount_paise) from ledger_entries where user_id = $1) where user_id = $1', [userId]);
  return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
}

async function run(kind: string, start: string, end = start): Promise<number> {
  const [row] = await ctx.t.database.query<{ run_id: string }>(
    `insert into income_runs (kind, period_start, period_end, status) values ($1, $2::date, $3::date, 'completed') returning run_id::text`,
    [kind, start, end]);
  return Number(row.run_id);
}

describe('the member money summary (issue 24)', () => {
  it('adds up each income net of its deductions and of reversals, and says which', async () => {
    const viewer = await operator('wallet_view');
    const member = await newMember(ctx.t.database, 'Pooja Summary');
    const day1 = await run('daily_payout', '2021-05-03');
    const day2 = await run('daily_payout', '2021-05-04');
    const [, , , p2, t2, a2] = await lines(member, [
      { kind: 'daily_payout', paise: 1000, at: '2021-05-03 12:00+00', runId: day1 },
      { kind: 'tds', paise: -50, at: '2021-05-03 12:00+00', runId: day1 },
      { kind: 'admin_charge', paise: -50, at: '2021-05-03 12:00+00', runId: day1 },
      { kind: 'daily_payout', paise: 1000, at: '2021-05-04 12:00+00', runId: day2 },
      { kind: 'tds', paise: -50, at: '2021-05-04 12:00+00', runId: day2 },
      { kind: 'admin_charge', paise: -50, at: '2021-05-04 12:00+00', runId: day2 },
      { kind: 'level_income', paise: 15_000, at: '2021-05-05 12:00+00' },
      { kind: 'royalty', paise: 700, at: '2021-05-06 12:00+00' },
      { kind: 'reward', paise: 1000, at: '2021-05-07 12:00+00' },
      { kind: 'referral_bonus', paise: 500, at: '2021-05-07 12:00+00' },
    ]);
    // Day 2 reversed: the gross taken back, the deductions given back.
    await lines(member, [
      { kind: 'daily_payout', paise: -1000, at: '2021-05-08 12:00+00', runId: day2, reversalOf: p2 },
      { kind: 'tds', paise: 50, at: '2021-05-08 12:00+00', runId: day2, reversalOf: t2 },
      { kind: 'admin_charge', paise: 50, at: '2021-05-08 12:00+00', runId: day2, reversalOf: a2 },
      { kind: 'wallet_withdrawal', paise: -200, at: '2021-05-09 12:00+00' },
    ]);
    // What the reversal could not take back, owed from the next credits.
    await ctx.t.database.query('insert into run_shortfalls (run_id, user_id, shortfall_paise) values ($1, $2, 300)', [day2, member]);
    await ctx.t.database.query('update users set recovery_paise = 300 where user_id = $1', [member]);
    await post(ctx.t.database.db, { kind: 'shortfall', runId: day2 }, [], [
      { account: 'recoveries_owed', amountPaise: -300 }, { account: 'daily_payout_expense', amountPaise: 300 }]);

    const res = await get(viewer, `/wallet/members/${member}/money`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ userId: member, fullName: 'Pooja Summary', balance: 179, recoveryOwed: 3, recovered: 0, membership: null });
    expect(data.earned.dailyPayout).toEqual({ gross: 20, deductions: 2, reversed: 9, net: 9, tds: 1, adminCharge: 1 });
    expect(data.earned.levelIncome).toEqual({ gross: 150, deductions: 0, reversed: 0, net: 150 });
    expect(data.earned.royalty).toEqual({ gross: 7, deductions: 0, reversed: 0, net: 7 });
    expect(data.earned.rewards).toEqual({ gross: 15, deductions: 0, reversed: 0, net: 15 });
    expect(data.earned.totalNet).toBe(181);
  });

  it('a staff account has no wallet: 404 saying so; an unknown id: 404 "Member N not found"', async () => {
    const viewer = await operator('wallet_view');
    const colleague = await operator('dashboard_view');
    for (const path of ['money', 'ledger', 'ledger.csv']) {
      const staff = await get(viewer, `/wallet/members/${colleague.userId}/${path}`);
      expect(staff.statusCode).toBe(404);
      expect(staff.json()).toEqual({ success: false, message: `User ${colleague.userId} is a staff account: staff hold no wallet` });
    }
    const nobody = await get(viewer, '/wallet/members/987654321/money');
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().message).toBe('Member 987654321 not found');
  });

  it('needs wallet_view, like the wallet history', async () => {
    const member = await newMember(ctx.t.database);
    const other = await operator('dashboard_view');
    expect((await get(other, `/wallet/members/${member}/money`)).statusCode).toBe(403);
    expect((await get(other, `/wallet/members/${member}/ledger`)).statusCode).toBe(403);
  });

  it('shows the membership with its plan', async () => {
    const viewer = await operator('wallet_view');
    const member = await newMember(ctx.t.database);
    await ctx.t.database.query(
      `insert into memberships (user_id, amount_paise, status, duration_days, cap_paise, daily_paise)
       values ($1, 500000, 'active', 100, 1000000, 5000)`, [member]);
    const { data } = (await get(viewer, `/wallet/members/${member}/money`)).json();
    expect(data.membership).toMatchObject({ planName: null, status: 'active', amount: 5000, durationDays: 100, cap: 10000, earned: 0 });
  });
});

describe('the member ledger (issue 24)', () => {
  it('every kind of the ledger has words', () => {
    expect([...LEDGER_KIND_NAMES].sort()).toEqual([...LEDGER_KINDS].sort());
  });

  it('pages newest first with kind in words, credit/debit, balance after and the counter-party: run, operator, approval, reversal', async () => {
    const maker = await operator('wallet_manage', 'wallet_view');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database, 'Ravi Ledger');
    const payout = await run('daily_payout', '2021-06-01');
    const [gross] = await lines(member, [
      { kind: 'daily_payout', paise: 10_000, at: '2021-06-01 13:00+00', runId: payout, description: 'Daily payout for 2021-06-01' },
      { kind: 'level_income', paise: 2_000, at: '2021-06-02 13:00+00', actorId: maker.userId },
    ]);
    expect((await recharge(maker, member, 500)).statusCode).toBe(200);
    const held = await recharge(maker, member, 20_000);
    expect(held.statusCode).toBe(202);
    const approved = await approve(checker, held.json().data.approvalId);
    expect(approved.statusCode).toBe(200);
    await lines(member, [{ kind: 'daily_payout', paise: -10_000, at: '2099-01-01 00:00+00', runId: payout, reversalOf: gross }]);

    const page1 = await get(maker, `/wallet/members/${member}/ledger?limit=2`);
    expect(page1.statusCode).toBe(200);
    const body1 = page1.json();
    expect(body1.total).toBe(5);
    expect(body1.data.map((l: { kindLabel: string }) => l.kindLabel)).toEqual(['Daily Payout', 'Wallet Recharge']);
    const [reversal, approvedLine] = body1.data;
    expect(reversal).toMatchObject({
      type: 'debit', amount: 100, balanceAfter: 20_520, reversalOf: gross,
      run: { runId: payout, kind: 'daily_payout', periodStart: '2021-06-01', periodEnd: '2021-06-01' },
      counterparty: `Daily payout run #${payout} (01-06-2021), reversal of line #${gross}`,
    });
    expect(approvedLine).toMatchObject({
      type: 'credit', amount: 20_000, balanceAfter: 20_620,
      approval: { id: held.json().data.approvalId, makerName: maker.name, checkerName: checker.name },
      counterparty: `Approval request #${held.json().data.approvalId} (asked by ${maker.name}, approved by ${checker.name})`,
    });

    const page2 = (await get(maker, `/wallet/members/${member}/ledger?limit=2&page=2`)).json();
    expect(page2.data.map((l: { kind: string }) => l.kind)).toEqual(['wallet_recharge', 'level_income']);
    expect(page2.data[0]).toMatchObject({ amount: 500, balanceAfter: 620, operator: { userId: maker.userId, name: maker.name }, counterparty: `By ${maker.name}` });
    expect(page2.data[1]).toMatchObject({ amount: 20, balanceAfter: 120, counterparty: `By ${maker.name}` });
    const page3 = (await get(maker, `/wallet/members/${member}/ledger?limit=2&page=3`)).json();
    expect(page3.data).toHaveLength(1);
    expect(page3.data[0]).toMatchObject({ kind: 'daily_payout', balanceAfter: 100, counterparty: `Daily payout run #${payout} (01-06-2021)` });
  });

  it('names the approval of a movement whose answer names no line by its transaction (an activation paid outside)', async () => {
    const viewer = await operator('wallet_view');
    const maker = await operator('membership_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    const [paid, fee] = await lines(member, [
      { kind: 'external_payment', paise: 50_000, at: '2021-09-09 10:00:00.123456+00', actorId: checker.userId },
      { kind: 'membership_fee', paise: -50_000, at: '2021-09-09 10:00:00.123456+00', actorId: checker.userId },
    ]);
    const [request] = await ctx.t.database.query<{ id: string }>(
      `insert into money_requests (kind, user_id, amount_paise, payload, status, maker_id, checker_id, decided_at, result)
       values ('activation_outside', $1, 50000, '{}', 'approved', $2, $3, '2021-09-09 10:00:00.123456+00', '{"balance": 0}') returning id::text`,
      [member, maker.userId, checker.userId]);
    const { data } = (await get(viewer, `/wallet/members/${member}/ledger`)).json();
    const expected = { id: Number(request.id), makerName: maker.name, checkerName: checker.name };
    expect(data.map((l: { id: number; approval: unknown }) => [l.id, l.approval])).toEqual([[fee, expected], [paid, expected]]);
  });

  it('filters by kind and by India days (balance after still counts every line)', async () => {
    const viewer = await operator('wallet_view');
    const member = await newMember(ctx.t.database);
    await lines(member, [
      { kind: 'wallet_recharge', paise: 1000, at: '2021-07-01 12:00+00' },
      // 30 June 19:00 UTC is 1 July 00:30 in India.
      { kind: 'level_income', paise: 300, at: '2021-06-30 19:00+00' },
      { kind: 'level_income', paise: 200, at: '2021-07-02 12:00+00' },
      { kind: 'wallet_withdrawal', paise: -100, at: '2021-07-03 12:00+00' },
    ]);
    const kind = (await get(viewer, `/wallet/members/${member}/ledger?kind=level_income`)).json();
    expect(kind.total).toBe(2);
    expect(kind.data.map((l: { amount: number; balanceAfter: number }) => [l.amount, l.balanceAfter])).toEqual([[2, 15], [3, 3]]);
    const day = (await get(viewer, `/wallet/members/${member}/ledger?fromDate=01-07-2021&toDate=01-07-2021`)).json();
    expect(day.data.map((l: { kind: string }) => l.kind)).toEqual(['wallet_recharge', 'level_income']);
    const both = (await get(viewer, `/wallet/members/${member}/ledger?kind=level_income&fromDate=02-07-2021`)).json();
    expect(both.data.map((l: { amount: number }) => l.amount)).toEqual([2]);
    const bad = await get(viewer, `/wallet/members/${member}/ledger?kind=bonus`);
    expect(bad.statusCode).toBe(400);
    const reversed = await get(viewer, `/wallet/members/${member}/ledger?fromDate=02-07-2021&toDate=01-07-2021`);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toContain('fromDate must not be after toDate');
  });

  it('exports the filtered ledger as CSV with India times and their offset, across batches, balances continuing', async () => {
    const viewer = await operator('wallet_view');
    const member = await newMember(ctx.t.database, 'Csv Person');
    const many = Array.from({ length: 2100 }, (_, i) => ({
      kind: i % 2 === 0 ? 'wallet_recharge' : 'reward', paise: 100 + i, at: `2021-08-01 00:00:00.${String(i).padStart(6, '0')}+00`,
    }));
    await lines(member, [{ kind: 'royalty', paise: 5, at: '2026-11-25 13:37:00+00', description: 'Royalty, "best"' }, ...many]);
    const res = await ctx.t.app.inject({ method: 'GET', url: `/api/wallet/members/${member}/ledger.csv`, headers: bearer(viewer.token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rows[0]).toBe('Line,Date & Time (IST),Kind,Credit,Debit,Balance After,Counter-party,Description');
    expect(rows).toHaveLength(2102);
    expect(rows[1]).toMatch(/^\d+,2026-11-25T19:07:00\+05:30,Royalty,0\.05,,/);
    expect(rows[1]).toContain('"Royalty, ""best"""');
    const total = many.reduce((s, r) => s + r.paise, 5);
    expect(rows[1].split(',')[5]).toBe((total / 100).toFixed(2));
    // The oldest line's balance after is its own amount, however many batches came before it.
    expect(rows[2101].split(',').slice(2, 6)).toEqual(['Wallet Recharge', '1.00', '', '1.00']);
    expect(rows[2101]).toContain('2021-08-01T05:30:00+05:30');

    const filtered = await ctx.t.app.inject({
      method: 'GET', url: `/api/wallet/members/${member}/ledger.csv?kind=reward`, headers: bearer(viewer.token),
    });
    const rewardRows = filtered.body.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1);
    expect(rewardRows).toHaveLength(1050);
    expect(rewardRows.every((r) => r.split(',')[2] === 'Reward')).toBe(true);
    // The oldest reward (i = 1, 1.01) comes after the oldest recharge (1.00): its balance after is 2.01.
    expect(rewardRows.at(-1)!.split(',')[5]).toBe('2.01');
  });
});
