import { describe, expect, it } from 'vitest';
import { fourEyesSuite } from '../approvals/four-eyes-test-kit.ts';
import { newMember } from './money-test-kit.ts';

/**
 * Issue 22, finding 11: staff are not members. An operator moved money to staff wallets (the
 * administrator's included); every money path that names a member now refuses an account that
 * signs in, as "Member N not found", and writes nothing.
 */
const { ctx, operator, post, recharge, ledgerRows } = fourEyesSuite(100_000_000);

async function adminId(): Promise<number> {
  const [row] = await ctx.t.database.query<{ user_id: string }>(
    `select u.user_id::text from users u join roles r on r.role_id = u.role_id where r.name = 'Admin' and u.can_sign_in order by u.user_id limit 1`);
  return Number(row.user_id);
}

async function nothingWritten(userId: number) {
  expect(await ledgerRows(userId)).toEqual([]);
  const [row] = await ctx.t.database.query<{ balance: string; requests: string; withdrawals: string }>(
    `select (select balance_paise::text from users where user_id = $1) as balance,
            (select count(*)::text from money_requests where user_id = $1) as requests,
            (select count(*)::text from withdrawal_requests where user_id = $1) as withdrawals`, [userId]);
  expect(row).toEqual({ balance: '0', requests: '0', withdrawals: '0' });
}

describe('money moves only to members\u2019 wallets (finding 11)', () => {
  it('an operator with wallet_manage credits the administrator\u2019s wallet: refused, nothing written, below and above the threshold', async () => {
    const op = await operator('wallet_manage', 'wallet_view');
    const admin = await adminId();
    for (const [amount, type] of [[500, 'wallet_recharge'], [50_000, 'wallet_recharge'], [1, 'wallet_withdrawal']] as const) {
      const res = await recharge(op, admin, amount, type);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: `Member ${admin} not found` });
    }
    await nothingWritten(admin);
  });

  it('another staff account is no member either: recharge, withdrawal request, transfer and activation are all refused', async () => {
    const colleague = await operator('dashboard_view');
    const op = await operator('wallet_manage', 'payouts_pay', 'membership_manage');
    const answers = [
      await recharge(op, colleague.userId, 100),
      await post(op, '/wallet/withdrawal', { userId: colleague.userId, amount: 1 }),
      await post(op, '/transferAdmin', { userId: colleague.userId, amount: 100, typeIncome: 'wallet recharge' }),
      await post(op, '/transferAdmin', { userId: colleague.userId, amount: 50_000, typeIncome: 'wallet recharge' }),
      await post(op, '/income/memberships', { userId: colleague.userId, planId: 1, paidVia: 'wallet' }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(`Member ${colleague.userId} not found`);
    }
    await nothingWritten(colleague.userId);
  });

  it('a member is still credited as before', async () => {
    const op = await operator('wallet_manage');
    const member = await newMember(ctx.t.database);
    expect((await recharge(op, member, 100)).statusCode).toBe(200);
    expect(await ledgerRows(member)).toHaveLength(1);
  });
});
