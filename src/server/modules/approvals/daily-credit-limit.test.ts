import { describe, expect, it } from 'vitest';
import { balanceOf, newMember } from '../wallet/money-test-kit.ts';
import { fourEyesSuite } from './four-eyes-test-kit.ts';

/** The daily credit limit per operator, lowered to ₹50,000 in this file so that it is reached in a few requests. */
const LIMIT_PAISE = 5_000_000;
const { ctx, operator, post, recharge, approve, moneyRequest } = fourEyesSuite(LIMIT_PAISE);

describe('the daily credit limit per operator (₹50,000 in this file)', () => {
  it('credits add up per maker and day; the one that would pass the limit is refused with what is left; debits do not count', async () => {
    const maker = await operator('wallet_manage', 'payouts_pay');
    // One member each (issue 22: the approval threshold applies to what one operator moves for one member in a day).
    const members = [];
    for (let i = 0; i < 6; i += 1) members.push(await newMember(ctx.t.database));
    for (let i = 0; i < 4; i += 1) expect((await recharge(maker, members[i], 10_000)).statusCode).toBe(200);
    expect((await post(maker, '/transferAdmin', { userId: members[4], amount: 5_000, typeIncome: 'wallet recharge' })).statusCode).toBe(200);
    expect((await recharge(maker, members[4], 1_000, 'wallet_withdrawal')).statusCode).toBe(200);
    const member = members[5];
    const over = await recharge(maker, member, 5_000.01);
    expect(over.statusCode).toBe(403);
    expect(over.json()).toEqual({
      success: false, message: 'This credit of ₹5,000.01 would pass your daily credit limit of ₹50,000.00: ₹5,000.00 is left today',
    });
    expect((await recharge(maker, member, 5_000)).statusCode).toBe(200);
    const [row] = await ctx.t.database.query<{ paise: string; today: boolean }>(
      `select paise::text, day = (now() at time zone 'Asia/Kolkata')::date as today from operator_daily_credits where actor_id = $1`, [maker.userId]);
    expect(row).toEqual({ paise: String(LIMIT_PAISE), today: true });
    let total = 0;
    for (const m of members) total += await balanceOf(ctx.t.database, m);
    expect(total).toBe(4_900_000);
    // Another operator has a limit of their own.
    expect((await recharge(await operator('wallet_manage'), member, 100)).statusCode).toBe(200);
  });

  it('a request above the threshold is refused at once when it cannot fit today; an approved one counts against its maker', async () => {
    const maker = await operator('wallet_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    const big = await recharge(maker, member, 50_000.01);
    expect(big.statusCode).toBe(403);
    expect(big.json().message).toBe('This credit of ₹50,000.01 would pass your daily credit limit of ₹50,000.00: ₹50,000.00 is left today');
    // Pending requests reserve nothing: both are filed, the one approved second no longer fits.
    const first = (await recharge(maker, member, 30_000)).json().data.approvalId;
    const second = (await recharge(maker, member, 30_000)).json().data.approvalId;
    expect((await approve(checker, first)).statusCode).toBe(200);
    const refused = await approve(checker, second);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'This credit of ₹30,000.00 would pass the requesting operator\u2019s daily credit limit of ₹50,000.00: ₹20,000.00 is left today');
    expect((await moneyRequest(second)).status).toBe('pending');
    const counted = await ctx.t.database.query<{ actor_id: string; paise: string }>(
      'select actor_id::text, paise::text from operator_daily_credits where actor_id in ($1, $2)', [maker.userId, checker.userId]);
    expect(counted).toEqual([{ actor_id: String(maker.userId), paise: '3000000' }]);
    expect(await balanceOf(ctx.t.database, member)).toBe(3_000_000);
  });
});
