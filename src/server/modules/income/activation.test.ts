import { describe, expect, it } from 'vitest';
import { balanceOf } from '../wallet/money-test-kit.ts';
import { activationSuite, BP, share, type Upline } from './income-test-kit.ts';
import { addDays } from './settings.ts';

/**
 * Membership activation and level income (issue 16): the terms copied from the plan version in
 * force today, the fee from the wallet, level income to the uplines with and without compression,
 * the refusals, and reading a membership back. Paid outside (four eyes) and exactly once are in
 * activation-four-eyes.test.ts. The suite checks the money invariants after each test.
 */
const { operator, fund, get, db, today, wire, member, plan, futurePlan, settings, chain, levelIncomeOf, ledgerOf, membershipRow, activate } =
  activationSuite();

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
    const future = await futurePlan(3);

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
