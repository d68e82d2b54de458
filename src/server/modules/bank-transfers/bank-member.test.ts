import { describe, expect, it } from 'vitest';
import { bankSuite } from './bank-test-kit.ts';

/**
 * Where a member's withdrawn money is (the member page's "Transfers to the bank"): every line sent
 * for them, newest first, with its state (in transit, settled, returned or its return awaiting
 * approval), and what still waits to be gathered, or cannot be for want of a primary account.
 */
const { operator, get, post, memberWithBank, withdraw, answerAs, releasedWithdrawals } = bankSuite();

describe('a member\u2019s transfers to the bank', () => {
  it('lists the member\u2019s lines newest first with a held return, and the withdrawal still waiting to be gathered', async () => {
    const { checker: clerk, members: [m], lines: [first] } = await releasedWithdrawals(['Uma Member'], 100);
    const cashier = await operator('wallet_manage', 'wallet_view');
    const viewer = await operator('wallet_view');
    // A second withdrawal, gathered and released in a second batch, then one more that waits.
    await withdraw(cashier, m, 50);
    const batch = (await post(clerk, '/bank-transfers/batches', {})).json().data;
    const asked = await post(clerk, `/bank-transfers/batches/${batch.id}/release`, {});
    expect((await post(await operator('money_approve'), `/approvals/${asked.json().data.approvalId}/approve`, {})).statusCode).toBe(200);
    await withdraw(cashier, m, 25);
    const held = await answerAs(clerk, [`${first.reference},REJECTED,,Account closed`]);
    expect(held.json().data.held).toBe(1);

    const res = await get(viewer, `/bank-transfers/members/${m}/lines`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ total: 2, page: 1, waiting: { count: 1, total: 25, withoutAccount: false } });
    expect(page.data.map((l: { amount: number; status: string; returnApprovalStatus: string | null }) => [l.amount, l.status, l.returnApprovalStatus]))
      .toEqual([[50, 'in_transit', null], [100, 'in_transit', 'pending']]);
  });

  it('says when a waiting withdrawal cannot be gathered for want of a primary account; needs wallet_view; 404 for a staff account', async () => {
    const cashier = await operator('wallet_manage', 'wallet_view');
    const m = await memberWithBank('Vikram No Account', false);
    await withdraw(cashier, m, 40);
    const res = await get(cashier, `/bank-transfers/members/${m}/lines`);
    expect(res.json()).toMatchObject({ total: 0, data: [], waiting: { count: 1, total: 40, withoutAccount: true } });
    expect((await get(await operator('bank_transfers'), `/bank-transfers/members/${m}/lines`)).statusCode).toBe(403);
    expect((await get(cashier, `/bank-transfers/members/${cashier.userId}/lines`)).statusCode).toBe(404);
    expect((await get(cashier, '/bank-transfers/members/abc/lines')).statusCode).toBe(400);
  });
});
