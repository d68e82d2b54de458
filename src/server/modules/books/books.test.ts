import { describe, expect, it } from 'vitest';
import { postEntry } from '../../db/books.ts';
import { activationSuite } from '../income/income-test-kit.ts';
import { newMember } from '../wallet/money-test-kit.ts';

/**
 * Issue 25: the Books screen's API — the trial balance at a date (from the daily rollups), an
 * account's statement over a period (opening + movement = closing, legs paged), a transfer with its
 * legs, the CSV exports, and books_view guarding all of it.
 */
const { ctx, operator, recharge, get, plan, chain, activate } = activationSuite();

/** dd-mm-yyyy of today in India. */
function indiaToday() {
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  return iso.split('-').reverse().join('-');
}

type Tb = { accounts: { code: string; balance: number; debit: number | null; credit: number | null; type: string }[]; totalDebit: number; totalCredit: number; difference: number; balanced: boolean; date: string };

async function someMoney() {
  const clerk = await operator('wallet_manage');
  const { bottom: a, uplines } = await chain(['active', 'active']);
  await ctx.t.database.query(`update users set full_name = 'Books Asha' where user_id = $1`, [a]);
  const b = await newMember(ctx.t.database, 'Books Bala');
  expect((await recharge(clerk, a, 5000)).statusCode).toBe(200);
  expect((await recharge(clerk, b, 2500.5)).statusCode).toBe(200);
  expect((await recharge(clerk, a, 1200, 'wallet_withdrawal')).statusCode).toBe(200);
  const { planId } = await plan(100_000);
  const activation = await activate(await operator('membership_manage'), { userId: a, planId, paidVia: 'wallet' });
  expect(activation.statusCode).toBe(201);
  await postEntry(ctx.t.database.db, { userId: b, kind: 'reward', amountPaise: 12_345, description: 'Books test reward', system: 'test' });
  return { a, b, clerk, uplines };
}

describe('the trial balance (issue 25)', () => {
  it('lists every account of the chart in order, balanced, with assets and expenses as debit balances', async () => {
    await someMoney();
    const viewer = await operator('books_view');
    const res = await get(viewer, '/books/trial-balance');
    expect(res.statusCode).toBe(200);
    const tb = res.json().data as Tb;
    expect(tb.date).toBe(indiaToday().split('-').reverse().join('-'));
    expect(tb.accounts.map((x) => x.code)).toEqual([
      'company_bank', 'outside_payments', 'recoveries_owed', 'member_wallets', 'withdrawals_payable', 'bank_in_transit',
      'tds_payable', 'membership_revenue', 'admin_charge_income', 'level_income_expense', 'daily_payout_expense',
      'royalty_expense', 'reward_expense', 'operator_credits', 'rounding',
    ]);
    expect(tb.balanced).toBe(true);
    expect(tb.difference).toBe(0);
    expect(tb.totalDebit).toBe(tb.totalCredit);
    expect(tb.totalDebit).toBeGreaterThan(0);
    const of = (code: string) => tb.accounts.find((x) => x.code === code)!;
    // The bank received the recharges: a debit balance; the wallets owe the members: a credit.
    expect(of('company_bank').debit).toBeGreaterThan(0);
    expect(of('company_bank').credit).toBeNull();
    expect(of('reward_expense').debit).toBeGreaterThanOrEqual(123.45);
    expect(of('withdrawals_payable').credit).toBeGreaterThanOrEqual(1200);
    const [wallets] = await ctx.t.database.query<{ s: string }>('select coalesce(sum(balance_paise), 0)::text as s from users');
    expect(of('member_wallets').credit).toBe(Number(wallets.s) / 100);
    // Each side is the sum of its column.
    const sum = (f: (x: Tb['accounts'][number]) => number | null) => Math.round(tb.accounts.reduce((s, x) => s + (f(x) ?? 0) * 100, 0)) / 100;
    expect(sum((x) => x.debit)).toBe(tb.totalDebit);
    expect(sum((x) => x.credit)).toBe(tb.totalCredit);
  });

  it('at a date before anything moved, every balance is zero; a bad date is refused', async () => {
    const viewer = await operator('books_view');
    const tb = (await get(viewer, '/books/trial-balance?date=01-01-2001')).json().data as Tb;
    expect(tb.date).toBe('2001-01-01');
    expect(tb.accounts.every((x) => x.balance === 0 && x.debit === null && x.credit === null)).toBe(true);
    expect(tb.balanced).toBe(true);
    const bad = await get(viewer, '/books/trial-balance?date=31-02-2026');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().success).toBe(false);
  });

  it('exports as CSV: the chart, then the totals', async () => {
    await someMoney();
    const viewer = await operator('books_view');
    const res = await get(viewer, '/books/trial-balance.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Code,Account,Type,Debit,Credit');
    expect(lines).toHaveLength(1 + 15 + 1);
    expect(lines[1]).toMatch(/^company_bank,Company bank,asset,\d+\.\d\d,$/);
    const [, , , debit, credit] = lines.at(-1)!.split(',');
    expect(debit).toBe(credit);
  });
});

describe('an account statement (issue 25)', () => {
  it('opening + movement = closing, the legs paged oldest first with their running balance and cause', async () => {
    const { clerk } = await someMoney();
    const viewer = await operator('books_view');
    const today = indiaToday();
    const whole = (await get(viewer, `/books/accounts/company_bank/statement?fromDate=01-01-2001&toDate=${today}&limit=500`)).json().data;
    expect(whole.opening).toBe(0);
    expect(Math.round((whole.opening + whole.movement) * 100)).toBe(Math.round(whole.closing * 100));
    expect(Math.round((whole.credits - whole.debits) * 100)).toBe(Math.round(whole.movement * 100));
    expect(whole.legs).toHaveLength(whole.total);
    expect(whole.legs.at(-1).balanceAfter).toBe(whole.closing);
    const tb = (await get(viewer, '/books/trial-balance')).json().data as Tb;
    expect(whole.closingSide).toEqual({ debit: tb.accounts[0].debit, credit: tb.accounts[0].credit });
    const byClerk = whole.legs.find((l: { cause: { operator: { userId: number } | null } }) => l.cause.operator?.userId === clerk.userId);
    expect(byClerk.cause.text).toBe(`By ${clerk.name}`);
    expect(byClerk.kind).toBe('wallet_recharge');

    // Page 2 of 2-leg pages continues the running balance.
    const p2 = (await get(viewer, `/books/accounts/company_bank/statement?fromDate=01-01-2001&toDate=${today}&limit=2&page=2`)).json().data;
    expect(p2.legs.map((l: { id: number }) => l.id)).toEqual(whole.legs.slice(2, 4).map((l: { id: number }) => l.id));
    expect(p2.legs[0].balanceAfter).toBe(whole.legs[2].balanceAfter);
  });

  it('the member wallets account: its legs are the members\u2019 lines, its closing the sum of the wallets', async () => {
    const { a } = await someMoney();
    const viewer = await operator('books_view');
    const today = indiaToday();
    const res = await get(viewer, `/books/accounts/member_wallets/statement?fromDate=${today}&toDate=${today}&limit=500`);
    expect(res.statusCode).toBe(200);
    const s = res.json().data;
    expect(Math.round((s.opening + s.movement) * 100)).toBe(Math.round(s.closing * 100));
    const [wallets] = await ctx.t.database.query<{ s: string }>('select coalesce(sum(balance_paise), 0)::text as s from users');
    expect(s.closing).toBe(Number(wallets.s) / 100);
    expect(s.legs.length).toBe(Math.min(s.total, 500));
    const line = s.legs.find((l: { member: { userId: number } | null; kind: string }) => l.member?.userId === a && l.kind === 'wallet_withdrawal');
    expect(line).toMatchObject({ debit: 1200, credit: null, member: { userId: a, name: 'Books Asha' } });
    if (s.total <= 500) expect(s.legs.at(-1).balanceAfter).toBe(s.closing);
  });

  it('debits and credits at any size: read from the day rollups (book_daily, ledger_daily), each side what the legs add up to', async () => {
    await someMoney();
    const viewer = await operator('books_view');
    const today = indiaToday();
    const iso = today.split('-').reverse().join('-');
    const day = `(created_at at time zone 'Asia/Kolkata')::date = $1::date`;
    const sides = async (table: string, where: string, params: unknown[]) => {
      const [r] = await ctx.t.database.query<{ debits: string; credits: string }>(`
        select coalesce(-sum(amount_paise) filter (where amount_paise < 0), 0)::text as debits,
               coalesce(sum(amount_paise) filter (where amount_paise > 0), 0)::text as credits
          from ${table} where ${where}`, params);
      return { debits: Number(r.debits) / 100, credits: Number(r.credits) / 100 };
    };
    for (const [code, expected] of [
      ['company_bank', await sides('book_legs', `account = 'company_bank' and ${day}`, [iso])],
      ['member_wallets', await sides('ledger_entries', day, [iso])],
    ] as const) {
      const s = (await get(viewer, `/books/accounts/${code}/statement?fromDate=${today}&toDate=${today}&limit=1`)).json().data;
      expect({ code, debits: s.debits, credits: s.credits }).toEqual({ code, ...expected });
      expect(expected.debits).toBeGreaterThan(0); // recharges debit the bank; the wallets: a withdrawal
      if (code === 'member_wallets') expect(expected.credits).toBeGreaterThan(0);
    }
    // The figures are the rollup's, not a sum of the legs: a paisa added to the kept credits shows.
    const [row] = await ctx.t.database.query<{ shard: number }>(
      `select shard from book_daily where account = 'company_bank' and day = $1::date order by shard limit 1`, [iso]);
    const bump = (by: number) => ctx.t.database.query(
      `update book_daily set credit_paise = credit_paise + $3 where account = 'company_bank' and day = $1::date and shard = $2`, [iso, row.shard, by]);
    await bump(1);
    try {
      const s = (await get(viewer, `/books/accounts/company_bank/statement?fromDate=${today}&toDate=${today}&limit=1`)).json().data;
      expect(Math.round(s.credits * 100)).toBe(Math.round((await sides('book_legs', `account = 'company_bank' and ${day}`, [iso])).credits * 100) + 1);
    } finally {
      await bump(-1);
    }
  });

  it('a period after today moves nothing; an unknown account is refused; the CSV has its header, opening and closing', async () => {
    await someMoney();
    const viewer = await operator('books_view');
    const later = (await get(viewer, '/books/accounts/reward_expense/statement?fromDate=01-01-2099&toDate=31-01-2099')).json().data;
    expect(later).toMatchObject({ movement: 0, debits: 0, credits: 0, legs: [], total: 0 });
    expect(later.opening).toBe(later.closing);
    expect((await get(viewer, '/books/accounts/nothing/statement?fromDate=01-01-2099&toDate=31-01-2099')).statusCode).toBe(400);
    const reversed = await get(viewer, '/books/accounts/company_bank/statement?fromDate=02-01-2099&toDate=01-01-2099');
    expect(reversed.statusCode).toBe(400);

    const today = indiaToday();
    const csv = await get(viewer, `/books/accounts/reward_expense/statement.csv?fromDate=01-01-2001&toDate=${today}`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Leg,Transfer,Date & Time (IST),Kind,Member,Debit,Credit,Balance After,Cause,Description');
    expect(lines[1]).toBe(',,,Opening balance,,,,0.00,,');
    expect(lines.at(-1)).toMatch(/^,,,Closing balance,,,,-\d+\.\d\d,,$/);
    expect(lines.some((l) => l.includes('Books test reward'))).toBe(true);
  });
});

describe('a transfer (issue 25)', () => {
  it('shows its header, its company legs and its member lines, which sum to zero; an unknown id answers 404', async () => {
    const { a, clerk } = await someMoney();
    const viewer = await operator('books_view');
    const [line] = await ctx.t.database.query<{ transfer_id: string }>(
      `select transfer_id::text from ledger_entries where user_id = $1 and kind = 'wallet_recharge' order by id limit 1`, [a]);
    const res = await get(viewer, `/books/transfers/${line.transfer_id}`);
    expect(res.statusCode).toBe(200);
    const t = res.json().data;
    expect(t).toMatchObject({ id: Number(line.transfer_id), kind: 'wallet_recharge', kindLabel: 'Wallet Recharge', corrects: null, correctedBy: [], beforeTheBooks: false });
    expect(t.cause.operator).toEqual({ userId: clerk.userId, name: clerk.name });
    expect(t.companyLegs).toEqual([{ account: 'company_bank', name: 'Company bank', debit: 5000, credit: null }]);
    expect(t.memberLines).toEqual([expect.objectContaining({ member: { userId: a, name: 'Books Asha' }, credit: 5000, debit: null, counterAccount: 'Company bank' })]);
    expect(t.memberLinesTotal).toBe(1);
    expect(t.memberTotal).toBe(5000);
    expect((await get(viewer, '/books/transfers/999999999')).statusCode).toBe(404);
  });

  it('a line from before the books is its own transfer (transfer_id NULL, id = the transfer)', async () => {
    const member = await newMember(ctx.t.database, 'Books Old');
    // As drizzle/0029 left the ledger: the line, its transfer of the same id, its counter-leg. The
    // line is written as if before the books: the check that later lines name their transfer is
    // set up again above it, as the migration would have.
    await ctx.t.database.query('alter table ledger_entries drop constraint ledger_transfer_named');
    const [row] = await ctx.t.database.query<{ id: string }>(`
      with t as (insert into transfers (id, kind, description, created_at)
                 select greatest((select max(id) from transfers), (select max(id) from ledger_entries)) + 1000, 'reward', 'Before the books: old reward',
                        '2021-01-05 10:00+05:30' returning id),
           l as (insert into ledger_entries (id, user_id, kind, amount_paise, description, created_at)
                 select id, $1, 'reward', 700, 'old reward', '2021-01-05 10:00+05:30' from t returning id),
           b as (insert into book_legs (transfer_id, account, amount_paise, created_at) select id, 'reward_expense', -700, '2021-01-05 10:00+05:30' from t)
      select id::text from l`, [member]);
    // Later transfers and lines are numbered above it, as after the migration.
    await ctx.t.database.query(`select setval(pg_get_serial_sequence('transfers', 'id'), $1), setval(pg_get_serial_sequence('ledger_entries', 'id'), $1)`, [Number(row.id)]);
    await ctx.t.database.query('update users set balance_paise = balance_paise + 700 where user_id = $1', [member]);
    await ctx.t.database.query(`alter table ledger_entries add constraint ledger_transfer_named check (transfer_id is not null or id <= ${Number(row.id)}) not valid`);
    const viewer = await operator('books_view');
    const t = (await get(viewer, `/books/transfers/${row.id}`)).json().data;
    expect(t).toMatchObject({ beforeTheBooks: true, memberLinesTotal: 1, memberTotal: 7 });
    expect(t.memberLines[0]).toMatchObject({ id: Number(row.id), member: { userId: member }, counterAccount: 'Rewards' });
    expect(t.companyLegs).toEqual([{ account: 'reward_expense', name: 'Rewards', debit: 7, credit: null }]);
  });
});

describe('the member statement (issue 25)', () => {
  it('opening, the period\u2019s lines with their counter-account in words, closing; the CSV the same', async () => {
    const { a } = await someMoney();
    const viewer = await operator('wallet_view');
    const today = indiaToday();
    const res = await get(viewer, `/wallet/members/${a}/statement?fromDate=${today}&toDate=${today}`);
    expect(res.statusCode).toBe(200);
    const s = res.json().data;
    const [balance] = await ctx.t.database.query<{ b: string }>('select balance_paise::text as b from users where user_id = $1', [a]);
    expect(s).toMatchObject({ userId: a, fullName: 'Books Asha', opening: 0, closing: Number(balance.b) / 100, credits: 5000 });
    expect(Math.round((s.opening + s.credits - s.debits) * 100)).toBe(Math.round(s.closing * 100));
    expect(s.lines.map((l: { kind: string; counterAccount: string; credit: number | null; debit: number | null }) => [l.kind, l.counterAccount, l.credit, l.debit]))
      .toEqual([
        ['wallet_recharge', 'Company bank', 5000, null],
        ['wallet_withdrawal', 'Withdrawals to send', null, 1200],
        ['membership_fee', 'Membership revenue', null, 1000],
      ]);
    expect(s.lines.at(-1).balanceAfter).toBe(s.closing);
    expect(s.lines[0].transferId).toBeGreaterThan(0);

    // A later period opens at the closing balance and moves nothing.
    const later = (await get(viewer, `/wallet/members/${a}/statement?fromDate=01-01-2099&toDate=02-01-2099`)).json().data;
    expect(later).toMatchObject({ opening: s.closing, closing: s.closing, credits: 0, debits: 0, lines: [], total: 0 });

    // Paged: page 2 of one-line pages is the second line, its balance after carried on.
    const p2 = (await get(viewer, `/wallet/members/${a}/statement?fromDate=${today}&toDate=${today}&page=2&limit=1`)).json().data;
    expect(p2.lines).toEqual([s.lines[1]]);

    const csv = await get(viewer, `/wallet/members/${a}/statement.csv?fromDate=${today}&toDate=${today}`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Line,Transfer,Date & Time (IST),Kind,Counter-account,Credit,Debit,Balance After,Description');
    expect(lines[1]).toBe(',,,Opening balance,,,,0.00,');
    expect(lines[2]).toContain(',Wallet Recharge,Company bank,5000.00,,5000.00,');
    expect(lines.at(-1)).toBe(`,,,Closing balance,,,,${(Number(balance.b) / 100).toFixed(2)},`);
  });

  it('needs wallet_view; a staff account or an unknown member answers 404', async () => {
    const { a } = await someMoney();
    const books = await operator('books_view');
    expect((await get(books, `/wallet/members/${a}/statement?fromDate=01-01-2026&toDate=02-01-2026`)).statusCode).toBe(403);
    expect((await get(books, `/wallet/members/${a}/statement.csv?fromDate=01-01-2026&toDate=02-01-2026`)).statusCode).toBe(403);
    const viewer = await operator('wallet_view');
    expect((await get(viewer, `/wallet/members/${viewer.userId}/statement?fromDate=01-01-2026&toDate=02-01-2026`)).statusCode).toBe(404);
    expect((await get(viewer, '/wallet/members/999999999/statement?fromDate=01-01-2026&toDate=02-01-2026')).statusCode).toBe(404);
  });
});

describe('books_view', () => {
  it('is required by every books endpoint', async () => {
    const other = await operator('wallet_view', 'reports_view');
    for (const url of ['/books/trial-balance', '/books/trial-balance.csv', '/books/accounts/company_bank/statement?fromDate=01-01-2026&toDate=02-01-2026',
      '/books/accounts/company_bank/statement.csv?fromDate=01-01-2026&toDate=02-01-2026', '/books/transfers/1']) {
      const res = await get(other, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().success).toBe(false);
    }
  });
});
