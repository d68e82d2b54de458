import { describe, expect, it } from 'vitest';
import { MOVEMENTS } from '../../lib/money/movements.ts';
import { balanceOf, newMember } from '../wallet/money-test-kit.ts';
import { AWAITS, fourEyesSuite, type Operator } from './four-eyes-test-kit.ts';

/**
 * A request is approved only while its maker could still file it: a maker whose role lost the
 * permission the movement's route requires (or whose role was switched off) since filing it sees
 * it expire instead, nothing moved, as a deactivated maker's does. Otherwise a request filed the
 * minute before a cashier's wallet_manage was taken away would still pay out after it.
 */
const { ctx, operator, recharge, approve, moneyRequest } = fourEyesSuite(100_000_000);

/** The maker's role, as accountWithPermissions made it. */
async function roleOf(who: Operator) {
  const [row] = await ctx.t.database.query<{ role_id: number }>('select role_id from users where user_id = $1', [who.userId]);
  return row.role_id;
}

describe('a request whose maker no longer holds its permission', () => {
  it('expires when the maker\u2019s role lost wallet_manage after filing: nothing moves', async () => {
    const maker = await operator('wallet_manage', 'wallet_view');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database, 'Ravi Permission');
    const filed = await recharge(maker, member, 20_000);
    expect(filed.statusCode, filed.body).toBe(202);
    expect(filed.json().message).toBe(AWAITS);
    const id = filed.json().data.approvalId;
    await ctx.t.database.query(
      `update role_permissions set permission_ids = array(select permission_id from permissions where name = 'wallet_view') where role_id = $1`,
      [await roleOf(maker)]);
    const before = await balanceOf(ctx.t.database, member);
    const res = await approve(checker, id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(`Approval request ${id} has expired: the operator who asked for it no longer holds the wallet_manage permission. Nothing moved`);
    expect(await balanceOf(ctx.t.database, member)).toBe(before);
    expect((await moneyRequest(id)).status).toBe('expired');
  });

  it('expires when the maker\u2019s role was switched off; a maker who still holds it is approved', async () => {
    const [off, kept] = [await operator('wallet_manage'), await operator('wallet_manage')];
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database, 'Sita Permission');
    const [a, b] = [await recharge(off, member, 15_000), await recharge(kept, member, 15_000)];
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    await ctx.t.database.query('update roles set status = false where role_id = $1', [await roleOf(off)]);
    const refused = await approve(checker, a.json().data.approvalId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/no longer holds the wallet_manage permission/);
    const before = await balanceOf(ctx.t.database, member);
    const approved = await approve(checker, b.json().data.approvalId);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await balanceOf(ctx.t.database, member)).toBe(before + 1_500_000);
  });

  it('every movement names the permission of the route that files it', () => {
    expect(Object.fromEntries(Object.entries(MOVEMENTS).map(([kind, m]) => [kind, m.permission]))).toEqual({
      wallet_recharge: 'wallet_manage', wallet_withdrawal: 'wallet_manage', withdrawal_approval: 'wallet_manage',
      admin_transfer: 'payouts_pay', pay_payout: 'payouts_pay', pay_payout_bulk: 'payouts_pay',
      membership_activation: 'membership_manage', run_reversal: 'income_runs', run_rerun: 'income_runs',
      plan_create: 'income_settings', plan_change: 'income_settings', settings_change: 'income_settings',
      bank_account_change: 'banks_manage', bank_batch_release: 'bank_transfers', bank_returns: 'bank_transfers', pan_change: 'users_edit',
    });
  });
});
