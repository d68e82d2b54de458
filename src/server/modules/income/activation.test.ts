import { describe, expect, it } from 'vitest';
import { DEFAULT_INCOME_SETTINGS, type IncomeSettings } from '../../../contract/income.ts';
import { AWAITS, fourEyesSuite, OWN_WALLET, type Operator } from '../approvals/four-eyes-test-kit.ts';
import { insertUser } from '../users/users.repository.ts';
import { balanceOf } from '../wallet/money-test-kit.ts';
import { addDays } from './settings.ts';

/**
 * Membership activation and level income (issue 16): the terms copied from the plan version in
 * force today, the fee from the wallet or paid outside (four eyes), level income to the uplines
 * with and without compression, exactly once. The suite checks the money invariants after each test.
 */
const { ctx, operator, fund, post, get, approve, moneyRequest } = fourEyesSuite(5_000_000);
const db = () => ctx.t.database;

const TODAY = `(now() at time zone 'Asia/Kolkata')::date`;
async function today(): Promise<string> {
  const [row] = await db().query<{ d: string }>(`select ${TODAY}::text as d`);
  return row.d;
}
const wire = (iso: string) => iso.split('-').reverse().join('-');

let serial = 0;
async function member(referredBy: number | null = null, fullName = 'Member'): Promise<number> {
  serial += 1;
  const stamp = `${Date.now()}${serial}`.slice(-9);
  const user = await insertUser(db().db, { fullName: `${fullName} ${serial}`, email: `act${stamp}@test.local`, phone: `8${stamp}`, level: 1, referredBy });
  return user.userId;
}

/** A plan whose first version is in force today; `later` schedules a second version from tomorrow. */
async function plan(pricePaise: number, options: { active?: boolean; later?: number; daily?: ['percent' | 'fixed', number] } = {}) {
  serial += 1;
  const [p] = await db().query<{ plan_id: number }>('insert into membership_plans (name) values ($1) returning plan_id', [`Plan ${serial}`]);
  const [mode, value] = options.daily ?? ['percent', 150];
  const [v] = await db().query<{ version_id: number }>(
    `insert into membership_plan_versions (plan_id, effective_from, price_paise, daily_mode, daily_value, duration_days, cap_paise, active)
     values ($1, ${TODAY}, $2, $3, $4, 200, $5, $6) returning version_id`,
    [p.plan_id, pricePaise, mode, value, pricePaise * 2, options.active ?? true]);
  if (options.later) {
    await db().query(
      `insert into membership_plan_versions (plan_id, effective_from, price_paise, daily_mode, daily_value, duration_days, cap_paise)
       values ($1, ${TODAY} + 1, $2, 'fixed', 100, 10, $2)`, [p.plan_id, options.later]);
  }
  return { planId: Number(p.plan_id), versionId: Number(v.version_id), name: `Plan ${serial}` };
}

/** The settings in force from today (replaced by the next call). */
async function settings(change: Partial<IncomeSettings>) {
  await db().query(
    `insert into income_settings_versions (effective_from, settings) values (${TODAY}, $1::jsonb)
     on conflict (effective_from) do update set settings = excluded.settings`,
    [JSON.stringify({ ...DEFAULT_INCOME_SETTINGS, ...change })]);
}

/** An engine membership straight in the table: 'active' makes its holder an active upline. */
async function holds(userId: number, status: 'active' | 'completed' | 'legacy' = 'active') {
  await db().query(
    `insert into memberships (user_id, amount_paise, status, cap_paise, daily_paise, duration_days, starts_on)
     values ($1, 100000, $2, 200000, 1000, 100, ${TODAY})`, [userId, status]);
}

type Upline = 'active' | 'inactive' | 'no-membership' | 'completed' | 'deleted';
/**
 * A chain of uplines, nearest first (index 0 = the direct referrer, level 1), and the member
 * at its bottom; each upline is made as `kinds` says.
 */
async function chain(kinds: Upline[]) {
  const ids: number[] = [];
  let above: number | null = null;
  for (const kind of [...kinds].reverse()) {
    const id: number = await member(above, 'Upline');
    if (kind === 'active' || kind === 'inactive' || kind === 'deleted') await holds(id);
    if (kind === 'completed') await holds(id, 'completed');
    if (kind === 'inactive') await db().query('update users set status = false where user_id = $1', [id]);
    if (kind === 'deleted') await db().query('update users set deleted_at = now() where user_id = $1', [id]);
    ids.unshift(id);
    above = id;
  }
  const bottom = await member(above, 'Buyer');
  return { uplines: ids, bottom };
}

async function levelIncomeOf(userIds: number[]) {
  const rows = await db().query<{ user_id: number; amount_paise: number; n: number }>(
    `select user_id, sum(amount_paise)::int8 as amount_paise, count(*)::int as n from ledger_entries
      where kind = 'level_income' and user_id = any($1::int8[]) group by user_id`, [userIds]);
  return userIds.map((id) => Number(rows.find((r) => Number(r.user_id) === id)?.amount_paise ?? 0));
}

async function ledgerOf(userId: number) {
  return db().query<{ kind: string; amount_paise: string; actor_id: string | null; description: string }>(
    'select kind, amount_paise::text, actor_id::text, description from ledger_entries where user_id = $1 order by id', [userId]);
}

async function membershipRow(userId: number) {
  const [row] = await db().query<Record<string, unknown>>(
    `select plan_id, plan_version_id, amount_paise::int8 as amount_paise, daily_paise::int8 as daily_paise, cap_paise::int8 as cap_paise,
            duration_days, starts_on::text as starts_on, status, paid_via, payment_method, payment_reference,
            activated_by::int8 as activated_by, approved_by::int8 as approved_by
       from memberships where user_id = $1`, [userId]);
  return row;
}

const activate = (who: Operator, body: Record<string, unknown>, key?: string) => post(who, '/income/memberships', body, key);

// Default level income: 10, 5, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5 % (bp 1000, 500, 300, 200, 100, 100, 50 ×4).
const BP = [1000, 500, 300, 200, 100, 100, 50, 50, 50, 50];
const share = (price: number, bp: number) => Math.floor((price * bp) / 10_000);

describe('POST /api/income/memberships: paid from the wallet', () => {
  it('copies today\u2019s plan version, debits the fee and credits 10 levels to the paisa (an 11th upline gets nothing)', async () => {
    await settings({ compression: false });
    const op = await operator('membership_manage', 'membership_view');
    const p = await plan(99_999, { later: 500_000 });
    const { uplines, bottom } = await chain(Array(11).fill('active'));
    await fund(bottom, 1_000); // ₹1,000.00 = 100,000 paise
    const before = await Promise.all(uplines.map((u) => balanceOf(db(), u)));

    const res = await activate(op, { userId: bottom, planId: p.planId, paidVia: 'wallet' });
    expect(res.statusCode).toBe(201);
    const day = await today();
    const expected = BP.map((bp) => share(99_999, bp));
    expect(expected).toEqual([9_999, 4_999, 2_999, 1_999, 999, 999, 499, 499, 499, 499]);
    const body = res.json();
    expect(body.message).toBe(`Membership ${p.name} activated for member ${bottom}; it earns from ${wire(addDays(day, 1))}`);
    expect(body.data.levelIncome).toEqual(expected.map((paise, i) => ({ level: i + 1, userId: uplines[i], amount: paise / 100 })));
    expect(body.data.balance).toBe(0.01);
    expect(body.data.membership).toMatchObject({
      userId: bottom, planId: p.planId, planName: p.name, planVersionId: p.versionId, price: 999.99,
      dailyAmount: 14.99, durationDays: 200, cap: 1999.98, earned: 0, daysEarned: 0, status: 'active',
      startsOn: wire(addDays(day, 1)), paidVia: 'wallet', paymentMethod: null, paymentReference: null,
    });

    const after = await Promise.all(uplines.map((u) => balanceOf(db(), u)));
    expect(after.map((b, i) => b - before[i])).toEqual([...expected, 0]);
    expect(await levelIncomeOf(uplines)).toEqual([...expected, 0]);
    const [sum] = await db().query<{ total: number; n: number }>(
      `select sum(amount_paise)::int8 as total, count(*)::int as n from ledger_entries where kind = 'level_income' and description like $1`,
      [`% member ${bottom}`]);
    expect([Number(sum.total), sum.n]).toEqual([23_990, 10]);
    expect(await ledgerOf(bottom)).toEqual([
      expect.objectContaining({ kind: 'reward', amount_paise: '100000' }),
      { kind: 'membership_fee', amount_paise: '-99999', actor_id: String(op.userId), description: `Membership ${p.name} (version ${p.versionId}), paid from the wallet` },
    ]);
    expect(await membershipRow(bottom)).toMatchObject({
      plan_id: p.planId, plan_version_id: p.versionId, amount_paise: 99_999, daily_paise: 1_499, cap_paise: 199_998,
      duration_days: 200, starts_on: addDays(day, 1), status: 'active', paid_via: 'wallet', activated_by: op.userId, approved_by: null,
    });

    // One audit row naming the plan version, the fee, the payment and the level income total.
    const audits = await db().query<{ actor_id: number; entity_id: string; after: Record<string, unknown> }>(
      `select actor_id::int8 as actor_id, entity_id, after from audit_log where action = 'membership_activated' and after->>'userId' = $1`, [String(bottom)]);
    expect(audits).toHaveLength(1);
    expect(Number(audits[0].actor_id)).toBe(op.userId);
    expect(audits[0].after).toMatchObject({
      planId: p.planId, planVersionId: p.versionId, feePaise: 99_999, paidVia: 'wallet', levelIncomeTotalPaise: 23_990, compression: false,
    });
    // No daily credit limit was used: the activation credits are the plan's, not the operator's.
    expect(await db().query('select 1 from operator_daily_credits where actor_id = $1', [op.userId])).toEqual([]);

    // GET answers the same membership; a second activation is refused.
    const got = await get(op, `/income/memberships/${bottom}`);
    expect(got.json()).toEqual({ success: true, data: body.data.membership });
    const again = await activate(op, { userId: bottom, planId: p.planId, paidVia: 'wallet' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, message: `Member ${bottom} already has a membership: a member holds one membership` });
  });

  it('refuses a fee the wallet cannot cover and writes nothing', async () => {
    const op = await operator('membership_manage');
    const p = await plan(50_000);
    const { uplines, bottom } = await chain(['active']);
    await fund(bottom, 100);
    const res = await activate(op, { userId: bottom, planId: p.planId, paidVia: 'wallet' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Insufficient wallet balance: the member has 100.00 and 500.00 was requested' });
    expect(await membershipRow(bottom)).toBeUndefined();
    expect(await levelIncomeOf(uplines)).toEqual([0]);
    expect(await balanceOf(db(), bottom)).toBe(10_000);
  });

  it('without compression an inactive upline\u2019s share is not paid; a chain shorter than 10 pays what it has', async () => {
    await settings({ compression: false });
    const op = await operator('membership_manage');
    const p = await plan(1_234_567);
    const kinds: Upline[] = ['active', 'inactive', 'active', 'no-membership', 'completed', 'active', 'deleted'];
    const { uplines, bottom } = await chain(kinds);
    await fund(bottom, 12_345.67);
    const res = await activate(op, { userId: bottom, planId: p.planId, paidVia: 'wallet' });
    expect(res.statusCode).toBe(201);
    const expected = kinds.map((k, i) => (k === 'active' ? share(1_234_567, BP[i]) : 0));
    expect(expected).toEqual([123_456, 0, 37_037, 0, 0, 12_345, 0]);
    expect(await levelIncomeOf(uplines)).toEqual(expected);
    expect(res.json().data.levelIncome.map((l: { level: number }) => l.level)).toEqual([1, 3, 6]);
    expect(await balanceOf(db(), bottom)).toBe(0);
  });

  it('with compression level k goes to the k-th active upline, walking past ten levels', async () => {
    await settings({ compression: true, levelIncome: [10, 5, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0.55] });
    const op = await operator('membership_manage');
    const p = await plan(1_000_003);
    const kinds: Upline[] = [
      'inactive', 'active', 'no-membership', 'active', 'deleted', 'completed', 'active', 'active', 'inactive', 'active',
      'active', 'no-membership', 'active', 'active', 'active', 'active', 'active',
    ];
    const { uplines, bottom } = await chain(kinds);
    await fund(bottom, 10_000.03);
    const res = await activate(op, { userId: bottom, planId: p.planId, paidVia: 'wallet' });
    expect(res.statusCode).toBe(201);
    const bp = [...BP.slice(0, 9), 55];
    const active = uplines.filter((_, i) => kinds[i] === 'active');
    expect(active).toHaveLength(11);
    const expected = uplines.map((id) => {
      const k = active.indexOf(id);
      return k >= 0 && k < 10 ? share(1_000_003, bp[k]) : 0;
    });
    expect(await levelIncomeOf(uplines)).toEqual(expected);
    expect(expected.filter((x) => x > 0)).toEqual([100_000, 50_000, 30_000, 20_000, 10_000, 10_000, 5_000, 5_000, 5_000, 5_500]);
    expect(res.json().data.levelIncome).toEqual(active.slice(0, 10).map((userId, i) => ({ level: i + 1, userId, amount: expected[uplines.indexOf(userId)] / 100 })));
    await settings({ compression: false });
  });

  it('pays no level income to a member with no referrer', async () => {
    const op = await operator('membership_manage');
    const p = await plan(10_000);
    const alone = await member();
    await fund(alone, 100);
    const res = await activate(op, { userId: alone, planId: p.planId, paidVia: 'wallet' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.levelIncome).toEqual([]);
  });
});

describe('POST /api/income/memberships: paid outside, four eyes', () => {
  it('up to the threshold runs directly: the payment comes in and goes out as the fee', async () => {
    const op = await operator('membership_manage');
    const p = await plan(1_000_000); // ₹10,000.00: the threshold itself
    const { uplines, bottom } = await chain(['active']);
    const res = await activate(op, { userId: bottom, planId: p.planId, paidVia: 'outside', method: 'UPI', reference: 'UTR 4471' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.membership).toMatchObject({ paidVia: 'outside', paymentMethod: 'UPI', paymentReference: 'UTR 4471' });
    expect((await ledgerOf(bottom)).map((r) => [r.kind, r.amount_paise])).toEqual([['external_payment', '1000000'], ['membership_fee', '-1000000']]);
    expect((await ledgerOf(bottom))[0].description).toBe(`Membership ${p.name} (version ${p.versionId}) paid outside the wallet: UPI, reference UTR 4471`);
    expect(await balanceOf(db(), bottom)).toBe(0);
    expect(await levelIncomeOf(uplines)).toEqual([100_000]);
  });

  it('above the threshold it waits for a second operator; the maker cannot approve; the checker\u2019s approval activates it once', async () => {
    const maker = await operator('membership_manage', 'money_approve');
    const checker = await operator('money_approve');
    const p = await plan(2_500_000);
    const { uplines, bottom } = await chain(['active', 'active']);
    const body = { userId: bottom, planId: p.planId, paidVia: 'outside', method: 'Cash', reference: 'Receipt 12' };
    const filed = await activate(maker, body);
    expect(filed.statusCode).toBe(202);
    expect(filed.json()).toMatchObject({ success: true, message: AWAITS, data: { status: 'pending' } });
    const approvalId = filed.json().data.approvalId;
    expect(await moneyRequest(approvalId)).toMatchObject({
      kind: 'membership_activation', user_id: String(bottom), amount_paise: '2500000', status: 'pending', maker_id: String(maker.userId),
    });
    expect(await membershipRow(bottom)).toBeUndefined();
    expect(await ledgerOf(bottom)).toEqual([]);

    const second = await activate(maker, body);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(`An activation of member ${bottom} already awaits approval (request ${approvalId})`);

    const own = await approve(maker, approvalId);
    expect(own.statusCode).toBe(403);
    expect(await membershipRow(bottom)).toBeUndefined();

    const approved = await approve(checker, approvalId);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data.result.membership).toMatchObject({ userId: bottom, status: 'active', paidVia: 'outside' });
    expect(await membershipRow(bottom)).toMatchObject({ activated_by: maker.userId, approved_by: checker.userId, payment_reference: 'Receipt 12' });
    expect((await ledgerOf(bottom)).map((r) => [r.kind, r.amount_paise, r.actor_id])).toEqual([
      ['external_payment', '2500000', String(checker.userId)], ['membership_fee', '-2500000', String(checker.userId)],
    ]);
    expect(await levelIncomeOf(uplines)).toEqual([250_000, 125_000]);
    const audits = await db().query<{ after: Record<string, unknown> }>(
      `select after from audit_log where action = 'membership_activated' and after->>'userId' = $1`, [String(bottom)]);
    expect(audits).toHaveLength(1);
    expect(audits[0].after).toMatchObject({ makerId: maker.userId, approvedBy: checker.userId, levelIncomeTotalPaise: 375_000 });
    expect((await approve(checker, approvalId)).statusCode).toBe(409);
  });

  it('nobody activates their own membership, nor approves their own', async () => {
    const op = await operator('membership_manage');
    const p = await plan(10_000);
    await fund(op.userId, 1_000);
    const own = await activate(op, { userId: op.userId, planId: p.planId, paidVia: 'wallet' });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({ success: false, message: OWN_WALLET });
    expect((await activate(op, { userId: op.userId, planId: p.planId, paidVia: 'outside', method: 'UPI', reference: 'x1' })).statusCode).toBe(403);

    const maker = await operator('membership_manage');
    const checker = await operator('money_approve');
    const big = await plan(2_000_000);
    const filed = await activate(maker, { userId: checker.userId, planId: big.planId, paidVia: 'outside', method: 'UPI', reference: 'x2' });
    expect(filed.statusCode).toBe(202);
    const self = await approve(checker, filed.json().data.approvalId);
    expect(self.statusCode).toBe(403);
    expect(await membershipRow(checker.userId)).toBeUndefined();
  });
});

describe('POST /api/income/memberships: exactly once', () => {
  it('a retry with the same Idempotency-Key activates once and replays the answer', async () => {
    const op = await operator('membership_manage');
    const p = await plan(20_000);
    const { uplines, bottom } = await chain(['active']);
    await fund(bottom, 500);
    const body = { userId: bottom, planId: p.planId, paidVia: 'wallet' };
    const first = await activate(op, body, 'activation-key-1');
    const retry = await activate(op, body, 'activation-key-1');
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect((await ledgerOf(bottom)).filter((r) => r.kind === 'membership_fee')).toHaveLength(1);
    expect(await levelIncomeOf(uplines)).toEqual([2_000]);
    expect(await balanceOf(db(), bottom)).toBe(30_000);
  });

  it('of two concurrent activations of one member one wins and the other gets 409', async () => {
    const op = await operator('membership_manage');
    const other = await operator('membership_manage');
    const p = await plan(20_000);
    const { uplines, bottom } = await chain(['active', 'active']);
    await fund(bottom, 1_000);
    const body = { userId: bottom, planId: p.planId, paidVia: 'wallet' };
    const answers = await Promise.all([activate(op, body), activate(other, body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect((await ledgerOf(bottom)).filter((r) => r.kind === 'membership_fee')).toHaveLength(1);
    expect(await levelIncomeOf(uplines)).toEqual([2_000, 1_000]);
    expect(await balanceOf(db(), bottom)).toBe(80_000);
  });

  it('activations under a shared upline at once all pay it', async () => {
    await settings({ compression: false });
    const op = await operator('membership_manage');
    const p = await plan(10_000);
    const { uplines, bottom } = await chain(['active', 'active']);
    const between = await member(uplines[0]); // no membership: an inactive level 1
    const buyers = [bottom, await member(uplines[0]), await member(uplines[0]), await member(between)];
    for (const b of buyers) await fund(b, 100);
    const answers = await Promise.all(buyers.map((b) => activate(op, { userId: b, planId: p.planId, paidVia: 'wallet' })));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201]);
    // uplines[0]: level 1 of three buyers, level 2 of the fourth; uplines[1]: level 2 of three, level 3 of the fourth.
    expect(await levelIncomeOf(uplines)).toEqual([3 * 1_000 + 500, 3 * 500 + 300]);
  });
});

describe('POST /api/income/memberships: refusals', () => {
  it('checks the body, the member, the plan and the permission', async () => {
    const op = await operator('membership_manage');
    const viewer = await operator('membership_view');
    const p = await plan(10_000);
    const inactivePlan = await plan(10_000, { active: false });
    const target = await member();
    const sleeping = await member();
    await db().query('update users set status = false where user_id = $1', [sleeping]);
    const gone = await member();
    await db().query('update users set deleted_at = now() where user_id = $1', [gone]);
    const [{ plan_id: future }] = await db().query<{ plan_id: number }>(`insert into membership_plans (name) values ('Future plan') returning plan_id`);
    await db().query(
      `insert into membership_plan_versions (plan_id, effective_from, price_paise, daily_mode, daily_value, duration_days, cap_paise)
       values ($1, ${TODAY} + 3, 100, 'fixed', 1, 1, 100)`, [future]);

    const cases: [Record<string, unknown>, number, string][] = [
      [{ userId: target, planId: p.planId, paidVia: 'outside', method: 'UPI' }, 400, 'A payment made outside needs its method and reference'],
      [{ userId: target, planId: p.planId, paidVia: 'card' }, 400, 'Payment must be wallet or outside'],
      [{ planId: p.planId, paidVia: 'wallet' }, 400, 'Select a member'],
      [{ userId: target, planId: 987_654, paidVia: 'wallet' }, 404, 'Plan 987654 not found'],
      [{ userId: target, planId: Number(future), paidVia: 'wallet' }, 400, `Plan ${future} is not on sale yet: its first version starts later`],
      [{ userId: target, planId: inactivePlan.planId, paidVia: 'wallet' }, 400, `Plan ${inactivePlan.name} is inactive and cannot be sold`],
      [{ userId: sleeping, planId: p.planId, paidVia: 'wallet' }, 400, `Member ${sleeping} is inactive: only an active member can take a membership`],
      [{ userId: gone, planId: p.planId, paidVia: 'wallet' }, 404, `Member ${gone} not found`],
      [{ userId: 99_999_999, planId: p.planId, paidVia: 'wallet' }, 404, 'Member 99999999 not found'],
    ];
    for (const [body, status, message] of cases) {
      const res = await activate(op, body);
      expect(res.statusCode, message).toBe(status);
      expect(res.json().success).toBe(false);
      expect(res.json().message, JSON.stringify(body)).toContain(message);
    }
    expect((await activate(viewer, { userId: target, planId: p.planId, paidVia: 'wallet' })).statusCode).toBe(403);
    expect(await db().query('select 1 from memberships where user_id = any($1::int8[])', [[target, sleeping, gone]])).toEqual([]);
  });
});

describe('GET /api/income/memberships/:userId', () => {
  it('answers null for a member without a membership, a legacy one as it is, 404 for no member', async () => {
    const viewer = await operator('membership_view');
    const none = await member();
    expect((await get(viewer, `/income/memberships/${none}`)).json()).toEqual({ success: true, data: null });
    const old = await member();
    await db().query('insert into memberships (user_id, amount_paise) values ($1, 99900)', [old]);
    expect((await get(viewer, `/income/memberships/${old}`)).json().data).toMatchObject({
      userId: old, planId: null, planName: null, price: 999, status: 'legacy', startsOn: null, paidVia: null,
    });
    expect((await get(viewer, '/income/memberships/99999999')).statusCode).toBe(404);
    expect((await get(viewer, '/income/memberships/abc')).statusCode).toBe(400);
  });
});
