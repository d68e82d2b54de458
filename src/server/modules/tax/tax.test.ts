import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INCOME_SETTINGS } from '../../../contract/income.ts';
import { PAN_MESSAGE } from '../../../contract/tax.ts';
import { post, postEntry } from '../../db/books.ts';
import { hashToken } from '../../lib/tokens.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { newMember } from '../wallet/money-test-kit.ts';
import { dailyPayout } from '../income/runs/daily-payout.ts';
import { istToday } from '../income/settings.ts';

/**
 * Issue 25, tax on what is paid (docs/tax.md): the PAN under four eyes and masked, TDS at the
 * no-PAN rate, the TDS report of a quarter and its CSV, the monthly statement from the books.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function operator(...permissions: string[]) {
  const token = await accountWithPermissions(t.database, permissions);
  const [row] = await t.database.query<{ user_id: string }>(
    'select u.user_id::text from sessions s join users u on u.user_id = s.user_id where s.token_hash = $1', [hashToken(token)]);
  return { token, userId: Number(row.user_id) };
}
const send = (who: { token: string }, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api${url}`, headers: bearer(who.token), ...(payload ? { payload } : {}) });
const panOf = async (userId: number) =>
  (await t.database.query<{ pan: string | null }>('select pan from users where user_id = $1', [userId]))[0].pan;

/** The financial-year quarter of an India day: FY start year and 1..4. */
function quarterOf(day: string) {
  const [y, m] = day.split('-').map(Number);
  return m >= 4 ? { year: y, quarter: Math.floor((m - 4) / 3) + 1 } : { year: y - 1, quarter: 4 };
}

describe('a member\u2019s PAN', () => {
  it('is refused at its field when malformed, filed for approval, shown masked, applied only by a second operator, audited masked', async () => {
    const maker = await operator('users_view', 'users_edit', 'money_approve');
    const checker = await operator('money_approve');
    const member = await newMember(t.database, 'Asha Rao');

    for (const bad of ['ABCD1234F', 'ABCDE12345', '12345ABCDE', 'ABCDE1234FF']) {
      const res = await send(maker, 'PUT', `/tax/pan/${member}`, { pan: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: PAN_MESSAGE, errors: [expect.objectContaining({ field: 'pan', message: PAN_MESSAGE })] });
    }
    // Without users_edit: 403.
    expect((await send(checker, 'PUT', `/tax/pan/${member}`, { pan: 'ABCDE1234F' })).statusCode).toBe(403);

    const filed = await send(maker, 'PUT', `/tax/pan/${member}`, { pan: 'abcde1234f' });
    expect(filed.statusCode).toBe(202);
    expect(filed.json().message).toMatch(/awaits approval/);
    const approvalId: number = filed.json().data.approvalId;
    expect(await panOf(member)).toBeNull();

    const shown = await send(maker, 'GET', `/tax/pan/${member}`);
    expect(shown.json()).toEqual({ success: true, data: { userId: member, pan: null, pending: { approvalId, pan: 'ABCDE****F' } } });
    const second = await send(maker, 'PUT', `/tax/pan/${member}`, { pan: 'PQRST9876Z' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(`A PAN change for this member already awaits approval (request ${approvalId})`);

    // The checker sees it masked, with the TDS rate each side means.
    const request = await send(checker, 'GET', `/approvals/${approvalId}`);
    expect(request.json().data).toMatchObject({
      kind: 'pan_change', userId: member, amount: 0, status: 'pending',
      details: { before: { pan: 'None', tds: '20 % (section 206AA, no PAN)' }, after: { pan: 'ABCDE****F', tds: '5 % (section 194H)' } },
    });

    const own = await send(maker, 'POST', `/approvals/${approvalId}/approve`);
    expect(own.statusCode).toBe(403);
    expect(await panOf(member)).toBeNull();
    const approved = await send(checker, 'POST', `/approvals/${approvalId}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(await panOf(member)).toBe('ABCDE1234F');
    expect((await send(maker, 'GET', `/tax/pan/${member}`)).json().data).toEqual({ userId: member, pan: 'ABCDE****F', pending: null });

    // The same PAN again is refused at its field; a change is filed the same way.
    const same = await send(maker, 'PUT', `/tax/pan/${member}`, { pan: 'ABCDE1234F' });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('This member already has this PAN');

    // No audit row and no answer carries the whole PAN.
    const log = await t.database.query<{ action: string; entity: string; before: unknown; after: unknown }>(
      `select action, entity, before, after from audit_log where (entity = 'user' and entity_id = $1) or (entity = 'money_request' and entity_id = $2) order by id`,
      [String(member), String(approvalId)]);
    expect(log.map((l) => l.action)).toEqual(['money_request_created', 'pan_change', 'money_request_approved']);
    expect(log[1]).toMatchObject({ entity: 'user', before: { pan: null }, after: { pan: 'ABCDE****F' } });
    expect(JSON.stringify(log)).not.toContain('ABCDE1234F');
    expect(approved.body).not.toContain('ABCDE1234F');
    expect(request.body).not.toContain('ABCDE1234F');

    // The database refuses a malformed PAN whoever writes it.
    await expect(t.database.query(`update users set pan = 'abcde1234f' where user_id = $1`, [member])).rejects.toThrow();
  });

  it('belongs to members only, and to a member that exists', async () => {
    const maker = await operator('users_view', 'users_edit');
    const staff = await operator('dashboard_view');
    const res = await send(maker, 'PUT', `/tax/pan/${staff.userId}`, { pan: 'ABCDE1234F' });
    expect(res.statusCode).toBe(400);
    expect((await send(maker, 'PUT', '/tax/pan/999999999', { pan: 'ABCDE1234F' })).statusCode).toBe(404);
    expect((await send(maker, 'GET', '/tax/pan/999999999')).statusCode).toBe(404);
  });
});

describe('TDS without a PAN (section 206AA)', () => {
  it('the daily payout deducts at the no-PAN rate from a member without a PAN and at the plan\u2019s rate from one with', async () => {
    const day = await istToday(t.database.db);
    const withPan = await newMember(t.database, 'With Pan');
    const withoutPan = await newMember(t.database, 'Without Pan');
    await t.database.query(`update users set pan = 'PQRST9876Z' where user_id = $1`, [withPan]);
    for (const userId of [withPan, withoutPan]) {
      await t.database.query(
        `insert into memberships (user_id, amount_paise, daily_paise, cap_paise, duration_days, starts_on, status, paid_via)
         values ($1, 100000, 10000, 1000000, 100, $2::date, 'active', 'wallet')`, [userId, day]);
    }
    const settings = { ...DEFAULT_INCOME_SETTINGS, tdsPercent: 5, tdsWithoutPanPercent: 20, adminChargePercent: 0, payOnWeekends: true };
    const scope = { runId: 0, kind: 'daily_payout' as const, period: { start: day, end: day }, settings, settingsVersionId: null, state: {}, batchId: null };
    // Only these two memberships are active today in this file: ₹100 each, TDS ₹5 + ₹20.
    const tally = await dailyPayout.preview!(t.database.db, scope);
    expect(tally).toMatchObject({ units: 2, paid: 2, grossPaise: 20_000, tdsPaise: 500 + 2_000 });
    await t.database.query(`update memberships set status = 'completed' where user_id = any($1::int8[])`, [[withPan, withoutPan]]);
  });
});

describe('the TDS report and the monthly statement', () => {
  it('lists each member\u2019s quarter (gross, TDS, sections), nets reversals, and writes the CSV with the PAN whole', async () => {
    const accountant = await operator('reports_view');
    const today = await istToday(t.database.db);
    const { year, quarter } = quarterOf(today);
    const a = await newMember(t.database, 'Kiran Das');
    const b = await newMember(t.database, 'Meena Iyer');
    const c = await newMember(t.database, 'Reversed Payee');
    await t.database.query(`update users set pan = 'KLMNO4321P' where user_id = $1`, [a]);
    const [{ run_id: runId }] = await t.database.query<{ run_id: string }>(
      `insert into income_runs (kind, period_start, period_end, settings, status) values ('daily_payout', $1::date, $1::date, $2::jsonb, 'completed') returning run_id::text`,
      [today, JSON.stringify({ ...DEFAULT_INCOME_SETTINGS, tdsPercent: 5, tdsWithoutPanPercent: 20 })]);
    const pay = async (userId: number, gross: number, tds: number, admin: number) => {
      const lines = [
        { userId, kind: 'daily_payout' as const, amountPaise: gross },
        { userId, kind: 'tds' as const, amountPaise: -tds },
        { userId, kind: 'admin_charge' as const, amountPaise: -admin },
      ];
      await post(t.database.db, { kind: 'daily_payout', runId: Number(runId) }, lines);
    };
    // With PAN: 5 % of ₹100 and of ₹50; without: 20 % of ₹80.
    await pay(a, 10_000, 500, 500);
    await pay(a, 5_000, 250, 250);
    await pay(b, 8_000, 1_600, 400);
    await pay(c, 6_000, 1_200, 300);
    // c's lines are reversed with the run: they net out.
    const cLines = await t.database.query<{ id: string; kind: string; amount_paise: string }>(
      'select id::text, kind, amount_paise::text from ledger_entries where user_id = $1 order by id', [c]);
    await post(t.database.db, { kind: 'reversal', runId: Number(runId) }, cLines.map((l) => ({
      userId: c, kind: l.kind as 'tds', amountPaise: -Number(l.amount_paise), reversalOf: Number(l.id),
    })));

    const res = await send(accountant, 'GET', `/tax/tds?year=${year}&quarter=${quarter}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const mine = body.data.filter((r: { userId: number }) => [a, b, c].includes(r.userId));
    const wire = today.split('-').reverse().join('-');
    expect(mine).toEqual([
      { userId: a, name: 'Kiran Das', pan: 'KLMNO****P', gross: 150, tds: 7.5, days: 1, firstDate: wire, lastDate: wire, sections: ['194H'] },
      { userId: b, name: 'Meena Iyer', pan: null, gross: 80, tds: 16, days: 1, firstDate: wire, lastDate: wire, sections: ['206AA'] },
    ]);
    expect(body.summary).toMatchObject({ members: body.total, label: expect.stringMatching(/^Q[1-4] \(/) });
    expect(body.summary.tds).toBeGreaterThanOrEqual(23.5);
    expect(body.summary.tdsWithoutPan).toBeGreaterThanOrEqual(16);
    expect(res.body).not.toContain('KLMNO4321P');

    const csv = await send(accountant, 'GET', `/tax/tds.csv?year=${year}&quarter=${quarter}`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('User ID,Name,PAN,Date of payment,Amount paid (gross),TDS deducted,Rate (%),Section,Higher rate (no PAN),Run');
    expect(lines.filter((l) => [a, b, c].some((id) => l.startsWith(`${id},`)))).toEqual([
      `${a},Kiran Das,KLMNO4321P,${wire},150.00,7.50,5.00,194H,No,${runId}`,
      `${b},Meena Iyer,PANNOTAVBL,${wire},80.00,16.00,20.00,206AA,Yes,${runId}`,
    ]);

    // The quarter is checked: 400 with the message.
    const bad = await send(accountant, 'GET', `/tax/tds?year=${year}&quarter=5`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('quarter must be 1, 2, 3 or 4');
    const staff = await operator('users_view');
    expect((await send(staff, 'GET', `/tax/tds?year=${year}&quarter=${quarter}`)).statusCode).toBe(403);
  });

  it('states the month\u2019s income and expenses per account from the books, expenses as amounts spent, and the net', async () => {
    const accountant = await operator('reports_view');
    const today = await istToday(t.database.db);
    const month = today.slice(0, 7);
    const before = (await send(accountant, 'GET', `/tax/monthly-statement?month=${month}`)).json().data;
    const amountOf = (s: { rows: { code: string; amount: number }[] }, code: string) => s.rows.find((r) => r.code === code)!.amount;

    // An activation as it posts: the member pays ₹1,000 from the wallet, their upline earns ₹100 level income.
    const buyer = await newMember(t.database, 'Buyer');
    const upline = await newMember(t.database, 'Upline');
    await postEntry(t.database.db, { userId: buyer, kind: 'wallet_recharge', amountPaise: 100_000, description: 'test funds', actorId: accountant.userId });
    await postEntry(t.database.db, { userId: buyer, kind: 'membership_fee', amountPaise: -100_000, description: 'Plan', actorId: accountant.userId });
    await postEntry(t.database.db, { userId: upline, kind: 'level_income', amountPaise: 10_000, description: 'Level 1', actorId: accountant.userId });
    // A payout: ₹200 gross, ₹10 TDS, ₹10 admin charge.
    await post(t.database.db, { kind: 'daily_payout', actorId: accountant.userId }, [
      { userId: upline, kind: 'daily_payout', amountPaise: 20_000 },
      { userId: upline, kind: 'tds', amountPaise: -1_000 },
      { userId: upline, kind: 'admin_charge', amountPaise: -1_000 },
    ]);

    const res = await send(accountant, 'GET', `/tax/monthly-statement?month=${month}`);
    expect(res.statusCode).toBe(200);
    const after = res.json().data;
    expect(after.rows.map((r: { type: string }) => r.type)).toEqual([...after.rows].map((r: { type: string }) => r.type).sort((x: string, y: string) => (x === y ? 0 : x === 'income' ? -1 : 1)));
    expect(amountOf(after, 'membership_revenue') - amountOf(before, 'membership_revenue')).toBe(1_000);
    expect(amountOf(after, 'admin_charge_income') - amountOf(before, 'admin_charge_income')).toBe(10);
    expect(amountOf(after, 'level_income_expense') - amountOf(before, 'level_income_expense')).toBe(100);
    expect(amountOf(after, 'daily_payout_expense') - amountOf(before, 'daily_payout_expense')).toBe(200);
    expect(after.income - before.income).toBe(1_010);
    expect(after.expenses - before.expenses).toBe(300);
    expect(after.net).toBeCloseTo(after.income - after.expenses, 2);
    expect(after.rows.some((r: { code: string }) => r.code === 'tds_payable' || r.code === 'company_bank')).toBe(false);

    const csv = await send(accountant, 'GET', `/tax/monthly-statement.csv?month=${month}`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Month,Type,Account,Name,Amount,Postings');
    expect(lines.some((l) => l.includes(',Income,membership_revenue,'))).toBe(true);
    expect(lines.at(-1)).toBe(`${after.label},Total,,Net (income less expenses),${after.net.toFixed(2)},`);

    const bad = await send(accountant, 'GET', '/tax/monthly-statement?month=2026-13');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('month must be yyyy-mm, like 2026-04');
  });
});
