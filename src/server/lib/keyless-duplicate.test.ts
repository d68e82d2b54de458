import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithPermissions } from '../test/accounts.ts';
import { bearer, signedInApp, type TestContext } from '../test/harness.ts';
import { balanceOf, moneyHeaders, moneyInvariantsAfterEach, newMember } from '../modules/wallet/money-test-kit.ts';
import { KEYLESS_DUPLICATE_MESSAGE } from './idempotency.ts';

/** Issue 22, finding 11: two identical money POSTs without an Idempotency-Key posted twice. */
let t: TestContext;
let token: string;
beforeAll(async () => {
  ({ t, token } = await signedInApp());
});
afterAll(() => t.close());
moneyInvariantsAfterEach(() => t.database);

const recharge = (payload: Record<string, unknown>, headers: Record<string, string> = bearer(token)) =>
  t.app.inject({ method: 'POST', url: '/api/wallets/userWalletRecharge', headers, payload });
const ledgerRows = async (userId: number) =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from ledger_entries where user_id = $1', [userId]))[0].n;
const duplicate = { success: false, message: KEYLESS_DUPLICATE_MESSAGE };

describe('an identical money POST without a key within a minute is a duplicate', () => {
  it('the attacker\'s steps: the same keyless recharge twice → 200 then 409, one ledger row; a minute later it is accepted', async () => {
    const userId = await newMember(t.database);
    const body = { userId, amount: 100, transactionType: 'wallet_recharge' };
    expect((await recharge(body)).statusCode).toBe(200);
    const again = await recharge(body);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(duplicate);
    expect(await ledgerRows(userId)).toBe(1);
    expect(await balanceOf(t.database, userId)).toBe(10_000);
    // The same body with its keys in another order is the same request.
    expect((await recharge({ transactionType: 'wallet_recharge', amount: 100, userId })).statusCode).toBe(409);
    // Another amount is another request; so is the same one with a key.
    expect((await recharge({ ...body, amount: 101 })).statusCode).toBe(200);
    expect((await recharge(body, moneyHeaders(token))).statusCode).toBe(200);
    expect(await ledgerRows(userId)).toBe(3);
    // A minute later (the stored time set back rather than waited for): accepted.
    await t.database.query(`update idempotency_keys set created_at = created_at - interval '61 seconds' where key like 'keyless %'`);
    expect((await recharge(body)).statusCode).toBe(200);
    expect((await recharge(body)).statusCode).toBe(409);
    expect(await ledgerRows(userId)).toBe(4);
  });

  it('two at once: one is done, the other refused', async () => {
    const userId = await newMember(t.database);
    const body = { userId, amount: 42, transactionType: 'wallet_recharge' };
    const answers = await Promise.all([recharge(body), recharge(body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await ledgerRows(userId)).toBe(1);
  });

  it('per operator, and a refused request is not a duplicate of its retry', async () => {
    const userId = await newMember(t.database);
    const body = { userId, amount: 30, transactionType: 'wallet_recharge' };
    const other = bearer(await accountWithPermissions(t.database, ['wallet_manage', 'wallet_view']));
    expect((await recharge(body)).statusCode).toBe(200);
    expect((await recharge(body, other)).statusCode).toBe(200);
    expect(await ledgerRows(userId)).toBe(2);
    // A withdrawal the balance does not cover is refused, and refused again the same way (nothing was done).
    const tooMuch = { userId, amount: 1000, transactionType: 'wallet_withdrawal' };
    const first = await recharge(tooMuch);
    expect(first.statusCode).toBe(400);
    const second = await recharge(tooMuch);
    expect(second.json()).toEqual(first.json());
    expect(await ledgerRows(userId)).toBe(2);
  });
});
