import { describe, expect, it } from 'vitest';
import { balanceOf } from '../wallet/money-test-kit.ts';
import { bankSuite } from './bank-test-kit.ts';

/**
 * Returns from the bank under four eyes. A rejection in a response file credits the member's wallet
 * back, so one operator who could upload a file could pay a member twice: the bank paid the
 * account, and a forged "REJECTED" line put the money back in the wallet to withdraw again. A
 * file's rejections now wait for a second operator (one bank_returns request per import); the
 * provider's signed webhook still returns at once. The money invariants after every test.
 */
const { ctx, operator, get, approve, post, answerAs, webhook, releasedWithdrawals, approveReturns, accountBalances } = bankSuite();

describe('returns from the bank', () => {
  it('one operator\u2019s file cannot put money back in a wallet: its rejections wait, the importer cannot approve them, a second operator does', async () => {
    const { checker: importer, batch, members: [m, n], lines } = await releasedWithdrawals(['Kavya Forged', 'Lalit Forged'], 500);
    const before = [await balanceOf(ctx.t.database, m), await balanceOf(ctx.t.database, n)];
    const books = await accountBalances();
    const res = await answerAs(importer, [`${lines[0].reference},REJECTED,,Account closed`, `${lines[1].reference},RETURNED,,`]);
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json().data;
    expect(summary).toMatchObject({ returned: 0, held: 2, heldAmount: 1000, returnedAmount: 0, problems: [] });
    // Nothing moved: the wallets and the books are as before, the lines still in transit with the request's number.
    expect([await balanceOf(ctx.t.database, m), await balanceOf(ctx.t.database, n)]).toEqual(before);
    expect(await accountBalances()).toEqual(books);
    const transit = (await get(importer, '/bank-transfers/in-transit?limit=100')).json().data as { reference: string; returnApprovalStatus: string }[];
    expect(transit.filter((l) => l.reference === lines[0].reference || l.reference === lines[1].reference).map((l) => l.returnApprovalStatus))
      .toEqual(['pending', 'pending']);
    const request = (await get(importer, `/approvals/${summary.returnsApprovalId}`)).json().data;
    expect(request).toMatchObject({ kind: 'bank_returns', userId: null, amount: 1000, status: 'pending', makerId: importer.userId });

    // The importer cannot approve it, nor anyone without money_approve.
    expect((await approve(importer, summary.returnsApprovalId)).statusCode).toBe(403);
    const clerk = await operator('bank_transfers');
    expect((await approve(clerk, summary.returnsApprovalId)).statusCode).toBe(403);
    // The checker sees what they are asked to credit back: the held lines, with the bank's reasons.
    const checker = await operator('money_approve');
    const asked = await get(checker, `/bank-transfers/returns/${summary.returnsApprovalId}/lines`);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ total: 2, data: [
      { reference: lines[0].reference, userId: m, amount: 500, status: 'in_transit', returnReason: 'Account closed', returnApprovalId: summary.returnsApprovalId, returnApprovalStatus: 'pending' },
      { reference: lines[1].reference, userId: n, amount: 500, status: 'in_transit', returnReason: 'no reason given', returnApprovalStatus: 'pending' },
    ] });
    expect((await get(clerk, `/bank-transfers/returns/${summary.returnsApprovalId}/lines`)).statusCode).toBe(403);
    expect((await get(checker, `/bank-transfers/returns/${(await get(importer, `/bank-transfers/batches/${batch.id}`)).json().data.approvalId}/lines`)).statusCode).toBe(404);
    const done = await approveReturns(checker, res);
    expect(done.json().data.result).toEqual({ lines: 2, returned: 2, total: 1000, memberDeleted: 0 });
    expect([await balanceOf(ctx.t.database, m), await balanceOf(ctx.t.database, n)]).toEqual([before[0] + 50_000, before[1] + 50_000]);
    const returns = await ctx.t.database.query<{ user_id: string; description: string; actor_id: string; approval_id: string }>(`
      select e.user_id::text, e.description, t.actor_id::text, t.approval_id::text
        from ledger_entries e join transfers t on t.id = e.transfer_id
       where e.kind = 'bank_return' and e.user_id = any($1::int8[]) order by e.user_id`, [[m, n]]);
    expect(returns).toEqual([
      { user_id: String(m), description: 'Returned by the bank: Account closed', actor_id: String(checker.userId), approval_id: String(summary.returnsApprovalId) },
      { user_id: String(n), description: 'Returned by the bank: no reason given', actor_id: String(checker.userId), approval_id: String(summary.returnsApprovalId) },
    ]);
    const returned = (await get(importer, `/bank-transfers/batches/${batch.id}/lines?status=returned`)).json().data;
    expect(returned).toEqual([
      expect.objectContaining({ reference: lines[0].reference, returnReason: 'Account closed' }),
      expect.objectContaining({ reference: lines[1].reference, returnReason: 'no reason given' }),
    ]);
  });

  it('a held line is answered: a settlement is a conflict and another rejection a duplicate, from a file or the webhook; a rejected request frees it', async () => {
    const { checker: importer, members: [m], lines: [line] } = await releasedWithdrawals(['Mira Held']);
    const held = await answerAs(importer, [`${line.reference},REJECTED,,Account closed`]);
    const requestId = held.json().data.returnsApprovalId;
    const note = `Its return awaits approval (request ${requestId}): not applied`;

    const settle = await answerAs(importer, [`${line.reference},SUCCESS,UTRHELD0001,`]);
    expect(settle.json().data).toMatchObject({ settled: 0, conflicts: 1, held: 0 });
    expect(settle.json().data.problems).toEqual([{ line: 1, reference: line.reference, outcome: 'conflict', message: note }]);
    expect((await webhook({ reference: line.reference, status: 'SUCCESS', utr: 'UTRHELD0002' })).json().data).toMatchObject({ outcome: 'conflict', message: note });
    expect((await webhook({ reference: line.reference, status: 'REJECTED' })).json().data).toMatchObject({ outcome: 'duplicate', message: note });

    // Rejected: nothing moved, and the line answers again; the same file is held under a new request.
    const before = await balanceOf(ctx.t.database, m);
    const checker = await operator('money_approve');
    const rejected = await post(checker, `/approvals/${requestId}/reject`, { remarks: 'The bank confirmed it paid' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await balanceOf(ctx.t.database, m)).toBe(before);
    const again = await answerAs(importer, [`${line.reference},REJECTED,,Account closed`]);
    expect(again.json().data).toMatchObject({ held: 1, duplicates: 0 });
    expect(again.json().data.returnsApprovalId).not.toBe(requestId);
    await approveReturns(checker, again);
    expect(await balanceOf(ctx.t.database, m)).toBe(before + 1000);
    // Returned now: the old request cannot be approved any more (it was rejected), and a third file is a duplicate.
    expect((await approve(checker, requestId)).statusCode).toBe(409);
    expect((await answerAs(importer, [`${line.reference},REJECTED,,Account closed`])).json().data).toMatchObject({ held: 0, duplicates: 1 });
  });

  it('the provider\u2019s signed webhook returns at once, with no request', async () => {
    const { members: [m], lines: [line] } = await releasedWithdrawals(['Nila Webhook']);
    const before = await balanceOf(ctx.t.database, m);
    const res = await webhook({ reference: line.reference, status: 'REJECTED', reason: 'Account closed' });
    expect(res.json().data).toMatchObject({ outcome: 'returned' });
    expect(await balanceOf(ctx.t.database, m)).toBe(before + 1000);
    const [requests] = await ctx.t.database.query<{ n: string }>(`select count(*)::text as n from money_requests where kind = 'bank_returns' and maker_id is null`);
    expect(requests.n).toBe('0');
  });

  it('a member deleted before the approval: their line stays in transit to be handled by hand, the rest is credited', async () => {
    const { checker: importer, members: [m, gone], lines } = await releasedWithdrawals(['Omar Stays', 'Pia Deleted']);
    const ref = (u: number) => lines.find((l) => l.userId === u)!.reference;
    const held = await answerAs(importer, [`${ref(m)},REJECTED,,Account closed`, `${ref(gone)},REJECTED,,Account closed`]);
    expect(held.json().data).toMatchObject({ held: 2 });
    await ctx.t.database.query('update users set deleted_at = now() where user_id = $1', [gone]);
    const before = await balanceOf(ctx.t.database, m);
    const done = await approveReturns(await operator('money_approve'), held);
    expect(done.json().data.result).toEqual({ lines: 2, returned: 1, total: 10, memberDeleted: 1 });
    expect(await balanceOf(ctx.t.database, m)).toBe(before + 1000);
    const transit = (await get(importer, '/bank-transfers/in-transit?limit=100')).json().data as { userId: number; returnReason: string | null }[];
    expect(transit.find((l) => l.userId === gone)).toMatchObject({ returnReason: expect.stringContaining('member was deleted') });
  });

  it('two checkers approving the same returns at once, and the file imported twice at once: the wallet is credited once', async () => {
    const { checker: importer, members: [m], lines: [line] } = await releasedWithdrawals(['Qadir Twice']);
    const file = [`${line.reference},REJECTED,,Account closed`];
    const imports = await Promise.all([answerAs(importer, file), answerAs(importer, file)]);
    expect(imports.map((r) => r.statusCode)).toEqual([200, 200]);
    const heldBy = imports.filter((r) => r.json().data.held === 1);
    expect(heldBy).toHaveLength(1);
    const id = heldBy[0].json().data.returnsApprovalId;
    const before = await balanceOf(ctx.t.database, m);
    const [a, b] = [await operator('money_approve'), await operator('money_approve')];
    const decided = await Promise.all([approve(a, id), approve(b, id)]);
    expect(decided.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await balanceOf(ctx.t.database, m)).toBe(before + 1000);
  });
});
