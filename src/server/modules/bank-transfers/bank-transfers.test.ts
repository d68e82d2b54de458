import { describe, expect, it } from 'vitest';
import { balanceOf } from '../wallet/money-test-kit.ts';
import { simulatorProvider, type Scenario } from './provider.ts';
import { signWebhook } from './bank-answers.service.ts';
import { bankSuite, SECRET } from './bank-test-kit.ts';
import { bearer } from '../../test/harness.ts';

/**
 * Money out to banks (issue 25): the bank file round trip — withdrawals, gather, release under
 * four eyes, the instruction file, the bank's response with successes, rejections, duplicates and
 * unknown references (imported twice: a return credits once) — the signed webhook and its replay,
 * and the simulator provider. The money invariants are checked after every test (fourEyesSuite).
 */
const {
  ctx, operator, post, get, approve, memberWithBank, withdraw, accountBalances, unbalancedTransfers, importText, answerAs, releaseBatch,
  releasedWithdrawals, approveReturns,
} = bankSuite();

describe('bank transfers', () => {
  it('round trip: gather, release under four eyes, the file, the response (twice), the webhook', async () => {
    const cashier = await operator('wallet_manage', 'wallet_view');
    const maker = await operator('bank_transfers', 'money_approve');
    const checker = await operator('bank_transfers', 'money_approve');
    const [a, b, c] = [await memberWithBank('Asha Rao'), await memberWithBank('Bala, Kumar'), await memberWithBank('Chitra Devi')];
    const nobank = await memberWithBank('Dev No Bank', false);
    for (const [u, r] of [[a, 100], [b, 200.5], [c, 300], [nobank, 50]] as const) await withdraw(cashier, u, r);

    const before = (await get(maker, '/bank-transfers/gatherable')).json().data;
    expect(before).toMatchObject({ count: 3, total: 600.5, notGatherableCount: 1, notGatherableTotal: 50 });
    expect(before.notGatherable).toEqual([expect.objectContaining({ userId: nobank, amount: 50, reason: 'The member has no primary bank account' })]);

    const gathered = await post(maker, '/bank-transfers/batches', {});
    expect(gathered.statusCode, gathered.body).toBe(201);
    const batch = gathered.json().data;
    expect(batch).toMatchObject({ status: 'draft', lines: 3, total: 600.5, template: 'hdfc' });
    expect((await post(maker, '/bank-transfers/batches', {})).statusCode).toBe(409);
    expect((await get(maker, '/bank-transfers/gatherable')).json().data.count).toBe(0);

    const lines = (await get(maker, `/bank-transfers/batches/${batch.id}/lines`)).json();
    expect(lines.total).toBe(3);
    expect(lines.data.map((l: { userId: number }) => l.userId)).toEqual([a, b, c]);
    expect(lines.data[0].reference).toBe(`BT${batch.id}-${lines.data[0].id}`);
    expect(lines.data[0].accountNumber).toMatch(/^X+\d{4}$/);
    const ref = Object.fromEntries(lines.data.map((l: { userId: number; reference: string }) => [l.userId, l.reference]));

    // Not released: no file yet. The maker asks; nobody releases their own request.
    expect((await get(maker, `/bank-transfers/batches/${batch.id}/file`)).statusCode).toBe(409);
    const asked = await post(maker, `/bank-transfers/batches/${batch.id}/release`, {});
    expect(asked.statusCode, asked.body).toBe(202);
    const approvalId = asked.json().data.approvalId;
    expect((await post(maker, `/bank-transfers/batches/${batch.id}/release`, {})).statusCode).toBe(409);
    expect((await get(maker, `/bank-transfers/batches/${batch.id}`)).json().data).toMatchObject({ status: 'pending_release', approvalId, approvalStatus: 'pending' });
    const own = await approve(maker, approvalId);
    expect(own.statusCode).toBe(403);
    // A checker with money_approve alone sees where the release sends the money; the request's lines, not another's.
    const approver = await operator('money_approve');
    const sends = await get(approver, `/bank-transfers/releases/${approvalId}/lines`);
    expect(sends.statusCode, sends.body).toBe(200);
    expect(sends.json()).toMatchObject({ total: 3, data: [{ userId: a, amount: 100, status: 'queued' }, { userId: b, amount: 200.5 }, { userId: c, amount: 300 }] });
    expect(sends.json().data[0].accountNumber).toMatch(/^X+\d{4}$/);
    expect((await get(cashier, `/bank-transfers/releases/${approvalId}/lines`)).statusCode).toBe(403);
    expect((await get(approver, '/bank-transfers/releases/99999999/lines')).statusCode).toBe(404);
    const booksBefore = await accountBalances();
    const released = await approve(checker, approvalId);
    expect(released.statusCode, released.body).toBe(200);
    expect((await get(maker, `/bank-transfers/batches/${batch.id}`)).json().data).toMatchObject({ status: 'released', releasedBy: checker.userId, releasedByName: checker.name });
    const booksAfter = await accountBalances();
    expect(booksAfter.withdrawals_payable - booksBefore.withdrawals_payable).toBe(-60050);
    expect((booksAfter.bank_in_transit ?? 0) - (booksBefore.bank_in_transit ?? 0)).toBe(60050);
    const [release] = await ctx.t.database.query<{ n: string }>(
      `select count(*)::text as n from transfers where kind = 'bank_release' and bank_batch_id = $1 and approval_id = $2 and actor_id = $3`, [batch.id, approvalId, checker.userId]);
    expect(release.n).toBe('1');

    // The instruction file: the generic template's exact columns, and HDFC Bank's layout by default.
    const generic = await get(maker, `/bank-transfers/batches/${batch.id}/file?template=generic`);
    expect(generic.statusCode).toBe(200);
    const rows = generic.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rows[0]).toBe('Beneficiary Name,Account Number,IFSC,Amount,Reference,Narration');
    expect(rows).toHaveLength(4);
    expect(rows[2]).toMatch(new RegExp(`^"Bala, Kumar",00\\d+,SBIN0001234,200\\.50,${ref[b]},Withdrawal ${ref[b]}$`));
    const hdfc = await get(maker, `/bank-transfers/batches/${batch.id}/file`);
    expect(hdfc.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'Transaction Type,Beneficiary Code,Beneficiary Account Number,Instrument Amount,Beneficiary Name,Customer Reference Number,Payment Details,Value Date,IFSC Code,Beneficiary Bank Name,Beneficiary Email ID');
    expect(hdfc.body.split('\r\n')[1]).toMatch(/^N,M\d+,00\d+,100\.00,Asha Rao,BT/);

    // The bank's response: A settled, B rejected, A again (a duplicate), an unknown reference; C unanswered.
    const response = [
      'Reference,Status,UTR,Reason',
      `${ref[a]},SUCCESS,HDFCN52026000001,`,
      `${ref[b]},REJECTED,,Account closed`,
      `${ref[a]},SUCCESS,HDFCN52026000001,`,
      'BT999999-1,SUCCESS,HDFCN52026000009,',
      '',
    ].join('\r\n');
    const bBefore = await balanceOf(ctx.t.database, b);
    const first = await importText(maker, response);
    expect(first.statusCode, first.body).toBe(200);
    // B's rejection waits for a second operator: the money stays in transit until then.
    const returnsId = first.json().data.returnsApprovalId;
    expect(first.json().data).toMatchObject({
      answers: 4, settled: 1, returned: 0, held: 1, heldAmount: 200.5, duplicates: 1, unknown: 1, pending: 0, settledAmount: 100, returnedAmount: 0,
    });
    expect(first.json().message).toBe(`Settled 1, returned 0, returns awaiting approval 1 (request ${returnsId}), duplicates 1, unknown 1`);
    expect(first.json().data.problems).toEqual([
      { line: 3, reference: ref[a], outcome: 'duplicate', message: 'Already applied: nothing moved' },
      { line: 4, reference: 'BT999999-1', outcome: 'unknown', message: 'No transfer has this reference' },
    ]);
    expect(await balanceOf(ctx.t.database, b)).toBe(bBefore);
    expect((await get(checker, `/approvals/${returnsId}`)).json().data).toMatchObject({ kind: 'bank_returns', amount: 200.5, makerId: maker.userId, status: 'pending' });
    expect((await get(approver, `/bank-transfers/releases/${returnsId}/lines`)).statusCode).toBe(404);

    // The same file again: nothing moves, every known line is a duplicate (B's return awaits its request).
    const again = await importText(maker, response);
    expect(again.json().data).toMatchObject({ settled: 0, returned: 0, held: 0, duplicates: 3, unknown: 1, returnsApprovalId: null });
    expect(again.json().data.problems).toContainEqual(
      { line: 2, reference: ref[b], outcome: 'duplicate', message: `Its return awaits approval (request ${returnsId}): not applied` });
    expect(await balanceOf(ctx.t.database, b)).toBe(bBefore);
    // The importer cannot approve their own returns; the checker does, and B's wallet is credited once.
    expect((await approve(maker, returnsId)).statusCode).toBe(403);
    const approvedReturns = await approve(checker, returnsId);
    expect(approvedReturns.statusCode, approvedReturns.body).toBe(200);
    expect(approvedReturns.json().data.result).toEqual({ lines: 1, returned: 1, total: 200.5, memberDeleted: 0 });
    expect(await balanceOf(ctx.t.database, b)).toBe(bBefore + 20050);
    expect((await importText(maker, response)).json().data).toMatchObject({ returned: 0, held: 0, duplicates: 3 });
    expect(await balanceOf(ctx.t.database, b)).toBe(bBefore + 20050);
    const returns = await ctx.t.database.query<{ amount_paise: string; description: string }>(
      `select amount_paise::text, description from ledger_entries where user_id = $1 and kind = 'bank_return'`, [b]);
    expect(returns).toEqual([{ amount_paise: '20050', description: 'Returned by the bank: Account closed' }]);
    const bLine = (await get(maker, `/bank-transfers/batches/${batch.id}/lines?status=returned`)).json().data;
    expect(bLine).toEqual([expect.objectContaining({ userId: b, status: 'returned', returnReason: 'Account closed' })]);

    // Reconciliation: C stays in transit, with its age.
    const transit = (await get(maker, '/bank-transfers/in-transit')).json();
    expect(transit.total).toBe(1);
    expect(transit.data[0]).toMatchObject({ userId: c, reference: ref[c], status: 'in_transit', ageDays: 0 });

    // The webhook: a wrong signature is refused; a signed answer settles C; its replay moves nothing.
    const raw = JSON.stringify({ reference: ref[c], status: 'SUCCESS', utr: 'HDFCN52026000003', eventId: 'e1' });
    const hook = (body: string, signature: string) => ctx.t.app.inject({
      method: 'POST', url: '/api/bank-transfers/webhook', headers: { 'content-type': 'application/json', 'x-bank-signature': signature }, payload: body,
    });
    expect((await hook(raw, signWebhook('wrong secret', raw))).statusCode).toBe(401);
    expect((await hook(raw, '')).statusCode).toBe(401);
    const tampered = raw.replace('SUCCESS', 'REJECTED');
    expect((await hook(tampered, signWebhook(SECRET, raw))).statusCode).toBe(401);
    const applied = await hook(raw, `sha256=${signWebhook(SECRET, raw)}`);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().data).toMatchObject({ reference: ref[c], outcome: 'settled' });
    const replayed = await hook(raw, signWebhook(SECRET, raw));
    expect(replayed.json().data).toMatchObject({ outcome: 'duplicate' });
    const late = JSON.stringify({ reference: ref[c], status: 'REJECTED', reason: 'late' });
    expect((await hook(late, signWebhook(SECRET, late))).json().data).toMatchObject({ outcome: 'conflict' });

    expect((await get(maker, `/bank-transfers/batches/${batch.id}`)).json().data).toMatchObject({
      status: 'closed', settledLines: 2, settled: 400, returnedLines: 1, returned: 200.5, openLines: 0,
    });
    expect((await get(maker, '/bank-transfers/in-transit')).json().total).toBe(0);
    const books = await accountBalances();
    expect((books.bank_in_transit ?? 0) - (booksBefore.bank_in_transit ?? 0)).toBe(0);
    expect(await unbalancedTransfers()).toEqual([]);
    const [settles] = await ctx.t.database.query<{ n: string }>(`select count(*)::text as n from transfers where kind = 'bank_settle' and bank_batch_id = $1`, [batch.id]);
    expect(settles.n).toBe('2');
    const [ret] = await ctx.t.database.query<{ corrects: string; approval_id: string; actor_id: string }>(
      `select corrects::text, approval_id::text, actor_id::text from transfers where kind = 'bank_return' and bank_batch_id = $1`, [batch.id]);
    expect([ret.approval_id, ret.actor_id]).toEqual([String(returnsId), String(checker.userId)]);
    const [rel] = await ctx.t.database.query<{ id: string }>(`select id::text from transfers where kind = 'bank_release' and bank_batch_id = $1`, [batch.id]);
    expect(ret.corrects).toBe(rel.id);
  });

  it('a response file uploaded as multipart, and the gatherer cannot release their own batch', async () => {
    const cashier = await operator('wallet_manage', 'wallet_view');
    const gatherer = await operator('bank_transfers', 'money_approve');
    const asker = await operator('bank_transfers');
    const checker = await operator('bank_transfers', 'money_approve');
    const m = await memberWithBank('Esha Multipart');
    await withdraw(cashier, m, 10);
    const batch = (await post(gatherer, '/bank-transfers/batches', { template: 'generic' })).json().data;
    const asked = await post(asker, `/bank-transfers/batches/${batch.id}/release`, {});
    expect((await approve(gatherer, asked.json().data.approvalId)).statusCode).toBe(403);
    expect((await approve(checker, asked.json().data.approvalId)).statusCode).toBe(200);
    const [line] = (await get(checker, `/bank-transfers/batches/${batch.id}/lines`)).json().data;
    const boundary = '----bankboundary';
    const payload = [`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="response.csv"', 'Content-Type: text/csv', '',
      `${line.reference},RETURNED,,Invalid IFSC`, `--${boundary}--`, ''].join('\r\n');
    const res = await ctx.t.app.inject({
      method: 'POST', url: '/api/bank-transfers/responses', payload,
      headers: { ...bearer(checker.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ held: 1, returned: 0, settled: 0 });
    await approveReturns(gatherer, res);
    const [entry] = await ctx.t.database.query<{ description: string }>(`select description from ledger_entries where user_id = $1 and kind = 'bank_return'`, [m]);
    expect(entry.description).toBe('Returned by the bank: Invalid IFSC');
    // Without the permission: refused.
    expect((await get(cashier, '/bank-transfers/batches')).statusCode).toBe(403);
  });

  it('an answer finds its line by the id its reference names and the whole reference: another batch, zeros or case are unknown; a line cannot be given another reference', async () => {
    const cashier = await operator('wallet_manage', 'wallet_view');
    const gatherer = await operator('bank_transfers');
    const checker = await operator('bank_transfers', 'money_approve');
    const m = await memberWithBank('Farah Reference');
    await withdraw(cashier, m, 10);
    const batch = (await post(gatherer, '/bank-transfers/batches', { template: 'generic' })).json().data;
    await releaseBatch(gatherer, checker, batch.id);
    const [line] = (await get(checker, `/bank-transfers/batches/${batch.id}/lines`)).json().data;
    const id = String(line.reference).split('-')[1];
    expect(line.reference).toBe(`BT${batch.id}-${id}`);
    const wrong = [`BT${batch.id + 1}-${id}`, `BT${batch.id}-0${id}`, `bt${batch.id}-${id}`, `BT${batch.id}-${id}x`, `BT${batch.id}-99999999999999999999`];
    const res = await importText(checker, ['Reference,Status,UTR,Reason', ...wrong.map((r) => `${r},SUCCESS,UTRX1,`), ''].join('\r\n'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ answers: 5, settled: 0, unknown: 5 });
    const settled = await importText(checker, `Reference,Status,UTR,Reason\r\n${line.reference},SUCCESS,UTRX2,\r\n`);
    expect(settled.json().data).toMatchObject({ answers: 1, settled: 1, unknown: 0 });
    await expect(ctx.t.database.query(`update bank_transfer_lines set reference = 'BT-other' where id = $1`, [Number(id)]))
      .rejects.toThrow(/bank_transfer_lines_reference_named/);
  });

  it('one UTR settles one line: again in the same answer, on another line later, or another UTR for a settled line is a conflict (one UTR settled many)', async () => {
    const { checker, members, lines } = await releasedWithdrawals(['Gita Utr', 'Hari Utr', 'Ivan Utr']);
    const ref = (m: number) => lines.find((l) => l.userId === m)!.reference;
    const [g, h, i] = members;
    const answer = (rows: string[]) => answerAs(checker, rows);
    const books = await accountBalances();

    const first = await answer([`${ref(g)},SUCCESS,UTRONE0001,`, `${ref(h)},SUCCESS,UTRONE0001,`]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ settled: 1, conflicts: 1, settledAmount: 10 });
    expect(first.json().data.problems).toEqual([
      { line: 2, reference: ref(h), outcome: 'conflict', message: `UTR UTRONE0001 is also given to ${ref(g)} in this answer: not applied` },
    ]);
    const later = await answer([`${ref(h)},SUCCESS,UTRONE0001,`]);
    expect(later.json().data).toMatchObject({ settled: 0, conflicts: 1 });
    expect(later.json().data.problems[0].message).toBe('UTR UTRONE0001 already settled another transfer: not applied');
    const other = await answer([`${ref(g)},SUCCESS,UTRTWO0002,`]);
    expect(other.json().data).toMatchObject({ settled: 0, duplicates: 0, conflicts: 1 });
    expect(other.json().data.problems[0].message).toBe('Settled before with UTR UTRONE0001; this answer gives UTR UTRTWO0002: not applied');
    // The same answer again is a duplicate; each line with its own UTR settles.
    const again = await answer([`${ref(g)},SUCCESS,UTRONE0001,`, `${ref(h)},SUCCESS,UTRTWO0002,`, `${ref(i)},SUCCESS,UTRTHR0003,`]);
    expect(again.json().data).toMatchObject({ settled: 2, duplicates: 1, conflicts: 0 });
    // The books moved exactly three settlements of ₹10 out of transit.
    const after = await accountBalances();
    expect((after.company_bank ?? 0) - (books.company_bank ?? 0)).toBe(3000);
    expect((after.bank_in_transit ?? 0) - (books.bank_in_transit ?? 0)).toBe(-3000);
    expect(await ctx.t.database.query('select utr, line_id::int from bank_utrs where utr like $1 order by utr', ['UTR%000_'])).toHaveLength(3);
    expect(await unbalancedTransfers()).toEqual([]);
  });

  it('an undecided status with a UTR (PENDING, ON HOLD) leaves the line in transit: a rejection after it returns the money (it had settled)', async () => {
    const { checker, batch, members: [m], lines: [line] } = await releasedWithdrawals(['Jaya Pending']);
    const answer = (rows: string[]) => answerAs(checker, rows);
    const before = await balanceOf(ctx.t.database, m);
    const held = await answer([`${line.reference},PENDING,UTRPEND0001,`, `${line.reference},On  Hold,UTRPEND0001,`]);
    expect(held.json().data).toMatchObject({ settled: 0, pending: 1, duplicates: 1, conflicts: 0 });
    expect((await get(checker, `/bank-transfers/batches/${batch.id}/lines`)).json().data[0].status).toBe('in_transit');
    const rejected = await answer([`${line.reference},REJECTED,,Beneficiary account frozen`]);
    expect(rejected.json().data).toMatchObject({ held: 1, conflicts: 0 });
    await approveReturns(await operator('money_approve'), rejected);
    expect(await balanceOf(ctx.t.database, m)).toBe(before + 1000);
  });

  it('the simulator: instant and delayed success, rejection, duplicate and out-of-order webhooks', async () => {
    const cashier = await operator('wallet_manage', 'wallet_view');
    const maker = await operator('bank_transfers');
    const checker = await operator('bank_transfers', 'money_approve');
    const scenarios: Scenario[] = ['instant', 'delayed', 'reject', 'duplicate', 'out_of_order'];
    const members: number[] = [];
    for (const s of scenarios) {
      const u = await memberWithBank(`Sim ${s}`);
      members.push(u);
      await withdraw(cashier, u, 20);
    }
    const batch = (await post(maker, '/bank-transfers/batches', {})).json().data;
    await releaseBatch(maker, checker, batch.id);
    const lines = (await get(maker, `/bank-transfers/batches/${batch.id}/lines`)).json().data as { id: number; userId: number; reference: string; amount: number }[];
    const byLine = new Map(lines.map((l) => [l.id, scenarios[members.indexOf(l.userId)]]));
    const answers: number[] = [];
    const simulator = simulatorProvider({
      secret: SECRET,
      scenario: (l) => byLine.get(l.id)!,
      delayMs: 20,
      deliver: async (raw, signature) => {
        const res = await ctx.t.app.inject({ method: 'POST', url: '/api/bank-transfers/webhook', headers: { 'content-type': 'application/json', 'x-bank-signature': signature }, payload: raw });
        answers.push(res.statusCode);
      },
    });
    await simulator.send(lines.map((l) => ({ ...l, amountPaise: Math.round(l.amount * 100), beneficiaryName: 'x', accountNumber: 'x', ifsc: 'x' })));
    await simulator.idle();
    expect(answers.every((s) => s === 200)).toBe(true);
    const after = (await get(maker, `/bank-transfers/batches/${batch.id}/lines`)).json().data as { userId: number; status: string }[];
    expect(after.map((l) => [scenarios[members.indexOf(l.userId)], l.status])).toEqual([
      ['instant', 'settled'], ['delayed', 'settled'], ['reject', 'returned'], ['duplicate', 'settled'], ['out_of_order', 'settled'],
    ]);
    expect(await simulator.status(lines[4].reference)).toMatchObject({ status: 'SUCCESS' });
    const [credits] = await ctx.t.database.query<{ n: string }>(`select count(*)::text as n from ledger_entries where kind = 'bank_return' and user_id = $1`, [members[2]]);
    expect(credits.n).toBe('1');
    expect(await unbalancedTransfers()).toEqual([]);
  });
});
