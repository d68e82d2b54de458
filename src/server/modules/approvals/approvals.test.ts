import { describe, expect, it } from 'vitest';
import { balanceOf, newMember } from '../wallet/money-test-kit.ts';
import { AWAITS, fourEyesSuite, OWN_WALLET } from './four-eyes-test-kit.ts';

/** Four eyes on money: nobody pays themselves; above the threshold a second operator approves (issue 13, finding 6). */
const LIMIT_PAISE = 5_000_000;
const { ctx, operator, fund, failedPayout, post, put, get, recharge, approve, ledgerRows, moneyRequest } = fourEyesSuite(LIMIT_PAISE);

describe('finding 6: operators can no longer pay themselves', () => {
  it('an operator with wallet_manage and payouts_pay cannot credit, debit, pay or file a withdrawal on their own wallet', async () => {
    const attacker = await operator('wallet_manage', 'payouts_pay', 'wallet_view');
    // The attacker's steps from the issue: ₹10 crore to their own wallet, then a withdrawal of it.
    const credit = await recharge(attacker, attacker.userId, 100_000_000);
    expect(credit.statusCode).toBe(403);
    expect(credit.json()).toEqual({ success: false, message: OWN_WALLET });
    expect((await recharge(attacker, attacker.userId, 500)).statusCode).toBe(403);
    expect((await recharge(attacker, attacker.userId, 5, 'wallet_withdrawal')).json().message).toBe(OWN_WALLET);
    const transfer = await post(attacker, '/transferAdmin', { userId: attacker.userId, amount: 500, typeIncome: 'wallet recharge' });
    expect(transfer.statusCode).toBe(403);
    const payoutId = await failedPayout(attacker.userId, 50_000);
    const payNow = await post(attacker, '/transferAdmin', { userId: attacker.userId, amount: 500, typeIncome: 'dailyPayout', payoutId });
    expect(payNow.json()).toEqual({ success: false, message: OWN_WALLET });
    await fund(attacker.userId, 100);
    const filed = await post(attacker, '/wallet/withdrawal', { userId: attacker.userId, amount: 50 });
    expect(filed.statusCode).toBe(403);

    expect(await ledgerRows(attacker.userId)).toEqual([{ kind: 'reward', amount_paise: '10000', actor_id: null }]);
    const [payout] = await ctx.t.database.query<{ status: string }>('select status from daily_payouts where id = $1', [payoutId]);
    expect(payout.status).toBe('Failure');
    expect(await ctx.t.database.query('select id from withdrawal_requests where user_id = $1', [attacker.userId])).toEqual([]);
    expect(await ctx.t.database.query('select id from money_requests where user_id = $1', [attacker.userId])).toEqual([]);
  });

  it('a withdrawal of the operator\u2019s own wallet, or one they filed themselves, cannot be approved by them', async () => {
    const attacker = await operator('wallet_manage');
    const colleague = await operator('wallet_manage');
    await fund(attacker.userId, 300);
    // A colleague files a withdrawal of the attacker's wallet so that the attacker approves it: a
    // staff account holds no wallet (issue 22), so there is nothing to file.
    const mine = await post(colleague, '/wallet/withdrawal', { userId: attacker.userId, amount: 100 });
    expect(mine.statusCode).toBe(404);
    expect(mine.json().message).toBe(`Member ${attacker.userId} not found`);

    // The attacker files a withdrawal of a member's wallet and approves it themselves.
    const member = await newMember(ctx.t.database);
    await fund(member, 300);
    const filed = (await post(attacker, '/wallet/withdrawal', { userId: member, amount: 100 })).json().data;
    const [row] = await ctx.t.database.query<{ requested_by: string }>('select requested_by::text from withdrawal_requests where id = $1', [filed.id]);
    expect(Number(row.requested_by)).toBe(attacker.userId);
    const self = await put(attacker, `/wallet/withdrawals/${filed.id}`, { status: 'approved' });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(`You filed withdrawal request ${filed.id}: another operator must approve it`);
    expect(await balanceOf(ctx.t.database, member)).toBe(30000);

    // A second operator may approve it; the debit names them.
    const decided = await put(colleague, `/wallet/withdrawals/${filed.id}`, { status: 'approved' });
    expect(decided.statusCode).toBe(200);
    expect(decided.json().data).toMatchObject({ status: 'approved', requestedBy: attacker.userId, decidedBy: colleague.userId });
    expect(await balanceOf(ctx.t.database, member)).toBe(20000);
    // Withdrawing one's own filing (rejecting it) moves nothing and stays allowed.
    const again = (await post(attacker, '/wallet/withdrawal', { userId: member, amount: 10 })).json().data;
    expect((await put(attacker, `/wallet/withdrawals/${again.id}`, { status: 'rejected' })).statusCode).toBe(200);
  });
});

describe('the approval threshold (₹10,000 by default)', () => {
  it('a recharge above it moves nothing: 202, a pending request with the payload to replay; at the threshold it moves as before', async () => {
    const maker = await operator('wallet_manage');
    const member = await newMember(ctx.t.database);
    const held = await recharge(maker, member, 10_000.01);
    expect(held.statusCode).toBe(202);
    expect(held.json()).toEqual({ success: true, message: AWAITS, data: { approvalId: expect.any(Number), status: 'pending' } });
    expect(await balanceOf(ctx.t.database, member)).toBe(0);
    expect(await moneyRequest(held.json().data.approvalId)).toEqual({
      kind: 'wallet_recharge', user_id: String(member), amount_paise: '1000001',
      payload: { userId: member, amount: 10_000.01, transactionType: 'wallet_recharge' },
      status: 'pending', maker_id: String(maker.userId), checker_id: null,
    });
    const [audit] = await ctx.t.database.query<{ action: string; actor_id: string }>(
      `select action, actor_id::text from audit_log where entity = 'money_request' and entity_id = $1`, [String(held.json().data.approvalId)]);
    expect(audit).toEqual({ action: 'money_request_created', actor_id: String(maker.userId) });

    const at = await recharge(maker, member, 10_000);
    expect(at.statusCode).toBe(200);
    expect(at.json()).toMatchObject({ success: true, message: 'Wallet recharged successfully', data: { balance: 10_000 } });
    expect(await balanceOf(ctx.t.database, member)).toBe(1_000_000);
  });

  it('a debit through userWalletRecharge above it waits too, and is refused at once when the balance cannot cover it', async () => {
    const maker = await operator('wallet_manage');
    const member = await newMember(ctx.t.database);
    await fund(member, 15_000);
    const tooMuch = await recharge(maker, member, 15_000.01, 'wallet_withdrawal');
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe('Insufficient wallet balance: the member has 15000.00 and 15000.01 was requested');
    const held = await recharge(maker, member, 12_000, 'wallet_withdrawal');
    expect(held.statusCode).toBe(202);
    expect((await moneyRequest(held.json().data.approvalId)).kind).toBe('wallet_withdrawal');
    expect(await balanceOf(ctx.t.database, member)).toBe(1_500_000);
  });

  it('a transfer and a Pay Now above it wait; a payout with a pending request cannot get a second one (409)', async () => {
    const maker = await operator('payouts_pay');
    const other = await operator('payouts_pay');
    const member = await newMember(ctx.t.database);
    const transfer = await post(maker, '/transferAdmin', { userId: member, amount: 20_000, typeIncome: 'wallet recharge' });
    expect(transfer.statusCode).toBe(202);
    expect(transfer.json().message).toBe(AWAITS);
    expect((await moneyRequest(transfer.json().data.approvalId)).kind).toBe('admin_transfer');

    const payoutId = await failedPayout(member, 1_500_000);
    const wrong = await post(maker, '/transferAdmin', { userId: member, amount: 15_000.5, typeIncome: 'dailyPayout', payoutId });
    expect(wrong.json().message).toBe('The amount must equal the payout amount of 15000.00');
    const payNow = await post(maker, '/transferAdmin', { userId: member, amount: 15_000, typeIncome: 'dailyPayout', payoutId });
    expect(payNow.statusCode).toBe(202);
    const id = payNow.json().data.approvalId;
    expect((await moneyRequest(id)).payload).toEqual({ userId: member, amount: 15_000, typeIncome: 'dailyPayout', payoutId });
    const second = await post(other, '/transferAdmin', { userId: member, amount: 15_000, typeIncome: 'dailyPayout', payoutId });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(`Payout ${payoutId} already awaits approval (request ${id})`);
    const [payout] = await ctx.t.database.query<{ status: string }>('select status from daily_payouts where id = $1', [payoutId]);
    expect(payout.status).toBe('Failure');
    expect(await balanceOf(ctx.t.database, member)).toBe(0);
  });

  it('approving a withdrawal above it files a request; the checker\u2019s approval debits once and decides the withdrawal', async () => {
    const filer = await operator('wallet_manage', 'money_approve');
    const maker = await operator('wallet_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    await fund(member, 30_000);
    const withdrawal = (await post(filer, '/wallet/withdrawal', { userId: member, amount: 25_000 })).json().data;
    const held = await put(maker, `/wallet/withdrawals/${withdrawal.id}`, { status: 'approved', remarks: 'to bank' });
    expect(held.statusCode).toBe(202);
    expect(held.json().message).toBe(AWAITS);
    const id = held.json().data.approvalId;
    expect((await moneyRequest(id)).kind).toBe('withdrawal_approval');
    const twice = await put(maker, `/wallet/withdrawals/${withdrawal.id}`, { status: 'approved' });
    expect(twice.statusCode).toBe(409);
    const [pending] = await ctx.t.database.query<{ status: string }>('select status from withdrawal_requests where id = $1', [withdrawal.id]);
    expect(pending.status).toBe('pending');

    // The filer holds money_approve too, but who filed it cannot approve it at any step.
    const byFiler = await approve(filer, id);
    expect(byFiler.statusCode).toBe(403);
    expect(byFiler.json().message).toBe(`You filed withdrawal request ${withdrawal.id}: another operator must approve it`);

    const done = await approve(checker, id);
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe('Request approved: Withdrawal approved');
    expect(await balanceOf(ctx.t.database, member)).toBe(500_000);
    const [decided] = await ctx.t.database.query<{ status: string; decided_by: string; remarks: string }>(
      'select status, decided_by::text, remarks from withdrawal_requests where id = $1', [withdrawal.id]);
    expect(decided).toEqual({ status: 'approved', decided_by: String(checker.userId), remarks: 'to bank' });
  });

  it('a retry with the same Idempotency-Key returns the same approvalId and files one request', async () => {
    const maker = await operator('wallet_manage');
    const member = await newMember(ctx.t.database);
    const first = await recharge(maker, member, 11_000, 'wallet_recharge', 'four-eyes-retry-1');
    const retry = await recharge(maker, member, 11_000, 'wallet_recharge', 'four-eyes-retry-1');
    expect(retry.statusCode).toBe(202);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await ctx.t.database.query('select id from money_requests where user_id = $1', [member])).toHaveLength(1);
  });
});

describe('the Approvals API', () => {
  it('a second operator approves: the movement runs once, the ledger names the checker, the audit log names both', async () => {
    const maker = await operator('wallet_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database, 'Four Eyes Member');
    const id = (await recharge(maker, member, 25_000)).json().data.approvalId;

    const listed = await get(checker, '/approvals?status=pending&limit=500');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.find((a: { id: number }) => a.id === id)).toEqual({
      id, kind: 'wallet_recharge', userId: member, userName: 'Four Eyes Member', amount: 25_000, status: 'pending',
      makerId: maker.userId, makerName: maker.name, checkerId: null, checkerName: null, remarks: null,
      payoutId: null, withdrawalId: null, details: null, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), decidedAt: null,
    });

    const done = await approve(checker, id, 'approve-once-key-1');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      success: true, message: 'Request approved: Wallet recharged successfully',
      data: { id, status: 'approved', checkerId: checker.userId, checkerName: checker.name, result: { userId: member, amount: 25_000, balance: 25_000 } },
    });
    expect(await balanceOf(ctx.t.database, member)).toBe(2_500_000);
    expect(await ledgerRows(member)).toEqual([{ kind: 'wallet_recharge', amount_paise: '2500000', actor_id: String(checker.userId) }]);
    const audits = await ctx.t.database.query<{ action: string; actor_id: string; before: Record<string, unknown> | null; after: Record<string, unknown> }>(
      `select action, actor_id::text, before, after from audit_log
        where (entity = 'money_request' and entity_id = $1) or (entity = 'ledger_entry' and after->>'userId' = $2) order by id`,
      [String(id), String(member)]);
    expect(audits.map((a) => [a.action, a.actor_id])).toEqual([
      ['money_request_created', String(maker.userId)], ['wallet_recharge', String(checker.userId)], ['money_request_approved', String(checker.userId)],
    ]);
    expect(audits[2].before).toMatchObject({ status: 'pending', makerId: maker.userId, makerName: maker.name });
    expect(audits[2].after).toMatchObject({
      status: 'approved', makerId: maker.userId, makerName: maker.name, checkerId: checker.userId, checkerName: checker.name,
    });

    const retry = await approve(checker, id, 'approve-once-key-1');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(done.json());
    const again = await approve(checker, id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, message: `Approval request ${id} has already been approved` });
    expect(await balanceOf(ctx.t.database, member)).toBe(2_500_000);
    expect((await get(checker, `/approvals/${id}`)).json().data).toMatchObject({ status: 'approved', decidedAt: expect.any(String) });
  });

  it('the maker cannot approve their own request, nor a checker a movement of their own wallet (403); the request stays pending', async () => {
    const maker = await operator('wallet_manage', 'money_approve');
    const owner = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    const id = (await recharge(maker, member, 30_000)).json().data.approvalId;
    const own = await approve(maker, id);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('You asked for this movement yourself: another operator with money_approve must approve it');
    // Not even as expired, once the member is gone: the maker's approval decides nothing (it expired the request).
    await ctx.t.database.query('update users set deleted_at = now() where user_id = $1', [member]);
    expect((await approve(maker, id)).statusCode).toBe(403);
    expect((await moneyRequest(id)).status).toBe('pending');
    await ctx.t.database.query('update users set deleted_at = null where user_id = $1', [member]);

    // A request filed before staff stopped holding wallets (issue 22): its owner still cannot approve it.
    const [filed] = await ctx.t.database.query<{ id: string }>(
      `insert into money_requests (kind, user_id, amount_paise, payload, maker_id)
       values ('wallet_recharge', $1, 3000000, $2::jsonb, $3) returning id::text`,
      [owner.userId, JSON.stringify({ userId: owner.userId, amount: 30_000, transactionType: 'wallet_recharge' }), maker.userId]);
    const forOwner = Number(filed.id);
    const mine = await approve(owner, forOwner);
    expect(mine.statusCode).toBe(403);
    expect(mine.json().message).toBe('You cannot approve a movement of your own wallet: another operator must do it');
    // Filing one now is refused: a staff account holds no wallet.
    expect((await recharge(maker, owner.userId, 30_000)).statusCode).toBe(404);
    expect((await moneyRequest(id)).status).toBe('pending');
    expect((await moneyRequest(forOwner)).status).toBe('pending');
    expect(await balanceOf(ctx.t.database, member)).toBe(0);
    expect(await balanceOf(ctx.t.database, owner.userId)).toBe(0);
  });

  it('a movement refused at approval time (balance gone, payout paid meanwhile) answers why and leaves the request pending', async () => {
    const maker = await operator('wallet_manage', 'payouts_pay');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    await fund(member, 20_000);
    const debit = (await recharge(maker, member, 15_000, 'wallet_withdrawal')).json().data.approvalId;
    expect((await recharge(maker, member, 9_000, 'wallet_withdrawal')).statusCode).toBe(200);
    const refused = await approve(checker, debit);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Insufficient wallet balance: the member has 11000.00 and 15000.00 was requested');
    expect((await moneyRequest(debit)).status).toBe('pending');

    const payoutId = await failedPayout(member, 1_200_000);
    const pay = (await post(maker, '/transferAdmin', { userId: member, amount: 12_000, typeIncome: 'dailyPayout', payoutId })).json().data.approvalId;
    await ctx.t.database.query(`update daily_payouts set status = 'Success', paid_at = now() where id = $1`, [payoutId]);
    const paid = await approve(checker, pay);
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toBe(`Payout ${payoutId} has already been paid`);
    expect((await moneyRequest(pay)).status).toBe('pending');
    expect(await balanceOf(ctx.t.database, member)).toBe(1_100_000);
  });

  it('a pending Pay Now approved by the checker pays the payout once', async () => {
    const maker = await operator('payouts_pay');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    const payoutId = await failedPayout(member, 1_234_500);
    const id = (await post(maker, '/transferAdmin', { userId: member, amount: 12_345, typeIncome: 'dailyPayout', payoutId })).json().data.approvalId;
    const done = await approve(checker, id);
    expect(done.json()).toMatchObject({ message: 'Request approved: Payment processed successfully', data: { payoutId, result: { payoutId, status: 'Success' } } });
    const [payout] = await ctx.t.database.query<{ status: string; ledger_entry_id: string }>(
      'select status, ledger_entry_id::text from daily_payouts where id = $1', [payoutId]);
    expect(payout.status).toBe('Success');
    expect(await ledgerRows(member)).toEqual([{ kind: 'daily_payout', amount_paise: '1234500', actor_id: String(checker.userId) }]);
  });

  it('two checkers approving at once: one wins, the other gets 409, the money moves once', async () => {
    const maker = await operator('wallet_manage');
    const [a, b] = [await operator('money_approve'), await operator('money_approve')];
    const member = await newMember(ctx.t.database);
    const id = (await recharge(maker, member, 40_000)).json().data.approvalId;
    const results = await Promise.all([approve(a, id), approve(b, id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await balanceOf(ctx.t.database, member)).toBe(4_000_000);
    expect(await ledgerRows(member)).toHaveLength(1);
  });

  it('rejecting needs a reason and moves nothing; the list shows pending first, then newest first', async () => {
    const maker = await operator('wallet_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    const older = (await recharge(maker, member, 10_500)).json().data.approvalId;
    const newer = (await recharge(maker, member, 10_600)).json().data.approvalId;
    const noReason = await post(checker, `/approvals/${newer}/reject`, { remarks: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toContain('Please give the reason for rejecting this request');
    const rejected = await post(checker, `/approvals/${newer}/reject`, { remarks: 'Not agreed with the member' });
    expect(rejected.json()).toMatchObject({
      success: true, message: 'Request rejected: no money moved', data: { status: 'rejected', remarks: 'Not agreed with the member', checkerId: checker.userId, result: null },
    });
    expect((await post(checker, `/approvals/${newer}/reject`, { remarks: 'again' })).statusCode).toBe(409);
    expect(await balanceOf(ctx.t.database, member)).toBe(0);

    const all = (await get(checker, '/approvals?limit=500')).json().data as { id: number; status: string; createdAt: string }[];
    const firstDecided = all.findIndex((a) => a.status !== 'pending');
    expect(all.slice(firstDecided).every((a) => a.status !== 'pending')).toBe(true);
    expect(all.findIndex((a) => a.id === older)).toBeLessThan(firstDecided);
    const pending = (await get(checker, '/approvals?status=pending&limit=500')).json().data as { id: number }[];
    expect(pending.findIndex((a) => a.id === older)).toBeGreaterThanOrEqual(0);
    expect(pending.some((a) => a.id === newer)).toBe(false);
    const onlyRejected = (await get(checker, '/approvals?status=rejected')).json();
    expect(onlyRejected.data.every((a: { status: string }) => a.status === 'rejected')).toBe(true);
    expect(onlyRejected.total).toBeGreaterThanOrEqual(1);
    expect((await get(checker, '/approvals/999999999')).statusCode).toBe(404);
    expect((await get(checker, '/approvals?status=maybe')).json().message).toContain('status must be pending, approved, rejected or expired');
    expect((await approve(checker, 999999999)).statusCode).toBe(404);
    expect((await get(maker, '/approvals')).statusCode).toBe(403);
  });

  it('issue 15: sorts a status by amount, kind or time in either direction, ties by id', async () => {
    const maker = await operator('wallet_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    const ids: number[] = [];
    for (const amount of [10_700, 10_900, 10_800]) ids.push((await recharge(maker, member, amount)).json().data.approvalId as number);
    type Row = { id: number; amount: number; kind: string; createdAt: string };
    const list = async (q: string) => ((await get(checker, `/approvals?status=pending&limit=500&${q}`)).json().data as Row[]);
    const mine = (rows: Row[]) => rows.filter((a) => ids.includes(a.id)).map((a) => a.amount);
    expect(mine(await list('sort=amount'))).toEqual([10_700, 10_800, 10_900]);
    expect(mine(await list('sort=-amount'))).toEqual([10_900, 10_800, 10_700]);
    const amounts = (await list('sort=-amount')).map((a) => a.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(mine(await list('sort=createdAt'))).toEqual([10_700, 10_900, 10_800]);
    expect(mine(await list(''))).toEqual([10_800, 10_900, 10_700]);
    const kinds = (await list('sort=kind')).map((a) => a.kind);
    expect(kinds).toEqual([...kinds].sort());
    // One per page, in order: no request repeated or skipped between pages.
    const all = await list('sort=amount');
    const paged: number[] = [];
    for (let page = 1; page <= all.length; page++) {
      paged.push(...((await get(checker, `/approvals?status=pending&limit=1&page=${page}&sort=amount`)).json().data as Row[]).map((a) => a.id));
    }
    expect(paged).toEqual(all.map((a) => a.id));
    expect((await get(checker, '/approvals?sort=maker')).statusCode).toBe(400);
  });
});
