import { describe, expect, it } from 'vitest';
import { OWN_WALLET } from '../approvals/four-eyes-test-kit.ts';
import { balanceOf } from '../wallet/money-test-kit.ts';
import { activationSuite } from './income-test-kit.ts';

/**
 * Membership activation (issue 16), who moves the fee and how many times: paid outside up to the
 * threshold directly and above it with a second operator's approval (four eyes), nobody on their
 * own membership, and exactly once under retries and concurrent requests. The rules of level
 * income are in activation.test.ts. The suite checks the money invariants after each test.
 */
const { operator, fund, approve, moneyRequest, db, member, plan, settings, chain, levelIncomeOf, ledgerOf, membershipRow, activate } = activationSuite();

describe('POST /api/income/memberships: paid outside, four eyes', () => {
  it('up to the threshold runs directly: the payment comes in and goes out as the fee', async () => {
    const op = await operator('membership_manage');
    // Judged by what it can pay (issue 22): its cap of ₹10,000.00 is the threshold itself.
    const p = await plan(1_000_000, { cap: 1_000_000 });
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
    expect(filed.json()).toMatchObject({
      success: true, data: { status: 'pending' },
      message: `Paid outside the wallet, plan ${p.name} can pay up to ₹50,000.00 (its cap), above the approval threshold of ₹10,000.00: this activation awaits approval by a second operator`,
    });
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
    // A staff account holds no wallet nor membership (issue 22): filing one for the checker is refused.
    const filed = await activate(maker, { userId: checker.userId, planId: big.planId, paidVia: 'outside', method: 'UPI', reference: 'x2' });
    expect(filed.statusCode).toBe(404);
    expect(filed.json().message).toBe(`Member ${checker.userId} not found`);
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
