import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { moneyInvariantViolations } from '../../lib/money-invariants.ts';
import { hashToken } from '../../lib/tokens.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { runToEnd } from '../income/runs/engine.ts';
import { addDays, ledgerOf, member, membership, settingsFrom, today } from '../income/runs/payout-test-kit.ts';
import { balanceOf, moneyHeaders } from '../wallet/money-test-kit.ts';
import { signWebhook } from './bank-answers.service.ts';

/**
 * Bank-mode daily payouts (issue 25, docs/bank-transfers.md): a run paying to bank sends what
 * reached each wallet (the net, less a recovery taken first) on to the bank as a bank_payout line
 * of the chunk's transfer; the gather takes those lines with the withdrawals; a reversal cancels
 * the lines no batch holds and leaves the batched ones (the wallet gives back what it can, the
 * rest is a shortfall owed, which a later bank return settles); Pay Now sends too; a draft batch
 * can be cancelled; every webhook is audited; a return for a deleted member is kept in transit.
 * Wallet mode up to 60 days ago, bank mode from 50 days ago. The money invariants after every test.
 */

let t: TestContext;
let operator: string;
let now: string;
const ops: { token: string; userId: number }[] = [];
beforeAll(async () => {
  t = await createTestApp({ config: { approvalThresholdPaise: 1_000_000_000 } });
  operator = await accountWithPermissions(t.database, ['wallet_manage', 'income_runs', 'payouts_view', 'payouts_pay', 'bank_transfers']);
  for (let i = 0; i < 2; i++) {
    const token = await accountWithPermissions(t.database, ['bank_transfers', 'money_approve']);
    const [row] = await t.database.query<{ user_id: string }>('select user_id::text from sessions where token_hash = $1', [hashToken(token)]);
    ops.push({ token, userId: Number(row.user_id) });
  }
  now = await today(t.database);
  await settingsFrom(t.database, addDays(now, -400), { tdsPercent: 5, adminChargePercent: 5, payOnWeekends: true });
  await settingsFrom(t.database, addDays(now, -50), { tdsPercent: 5, adminChargePercent: 5, payOnWeekends: true, payTo: 'bank' });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

const post = (url: string, payload: Record<string, unknown> = {}, token = ops[0].token) =>
  t.app.inject({ method: 'POST', url: `/api${url}`, headers: moneyHeaders(token), payload });
const get = (url: string, token = ops[0].token) => t.app.inject({ method: 'GET', url: `/api${url}`, headers: bearer(token) });
const runDay = (day: string) => runToEnd(t.database, { kind: 'daily_payout', day, startedBy: null, rerunApproved: true });
const reverse = (runId: number) => post(`/income/runs/${runId}/reverse`, { remarks: 'Paid by mistake' }, operator);
const preview = async (runId: number) => (await get(`/income/runs/${runId}/reversal-preview`, operator)).json().data;

let serial = 0;
async function addBank(userId: number) {
  serial += 1;
  await t.database.query(
    `insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, is_primary) values ($1, 'Holder', $2, 'SBIN0001234', 'SBI', true)`,
    [userId, `11${String(userId).padStart(8, '0')}${serial}`]);
}

/** A member earning ₹10 gross (₹9 net) on `day` only, with a primary bank account unless told. */
async function earner(day: string, bank = true, dailyPaise = 1000) {
  const userId = await member(t.database);
  await membership(t.database, userId, { dailyPaise, capPaise: 1_000_000, durationDays: 1, startsOn: day });
  if (bank) await addBank(userId);
  return userId;
}

/** Gathers every waiting line into a new batch and answers it and its lines. */
async function gather() {
  const res = await post('/bank-transfers/batches');
  expect(res.statusCode, res.body).toBe(201);
  const batch = res.json().data;
  const lines = (await get(`/bank-transfers/batches/${batch.id}/lines?limit=100`)).json().data as
    { userId: number; reference: string; source: string; amount: number; ledgerEntryId: number; status: string }[];
  return { batch, lines };
}

async function release(batchId: number) {
  const asked = await post(`/bank-transfers/batches/${batchId}/release`);
  expect(asked.statusCode, asked.body).toBe(202);
  const res = await post(`/approvals/${asked.json().data.approvalId}/approve`, {}, ops[1].token);
  expect(res.statusCode, res.body).toBe(200);
}

const respond = (lines: string[]) => post('/bank-transfers/responses', { text: ['Reference,Status,UTR,Reason', ...lines].join('\n') });
/** The returns an import held, approved by the second operator. */
async function approveReturns(imported: { json(): { data: { returnsApprovalId: number | null } } }) {
  const res = await post(`/approvals/${imported.json().data.returnsApprovalId}/approve`, {}, ops[1].token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.result as { returned: number; memberDeleted: number };
}
const owed = async (userId: number) =>
  Number((await t.database.query<{ r: string }>('select recovery_paise::text as r from users where user_id = $1', [userId]))[0].r);

describe('bank-mode daily payouts', () => {
  it('send each net to the bank after a recovery, in the chunk transfer; gathered as daily payouts; released, settled, returned', async () => {
    // b owes ₹9: paid on a wallet-mode day, emptied, the run reversed.
    const old = addDays(now, -70);
    const b = await earner(old);
    const oldRun = await runDay(old);
    expect((await post('/wallets/userWalletRecharge', { userId: b, amount: 9, transactionType: 'wallet_withdrawal' }, operator)).statusCode).toBe(200);
    expect((await reverse(oldRun.runId)).json().data).toMatchObject({ status: 'reversed', shortfall: 9 });
    await gather(); // b's withdrawal leaves for the bank on its own
    const day = addDays(now, -40);
    const a = await earner(day);
    await t.database.query(`update memberships set starts_on = $2::date, daily_paise = 2000, status = 'active' where user_id = $1`, [b, day]);
    const nobank = await earner(day, false);
    const run = await runDay(day);
    expect([run.status, run.paid, run.failed, run.grossPaise, run.deductionsPaise].map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v)))
      .toEqual(['completed', 2, 1, 3000, 300]);

    expect((await ledgerOf(t.database, a)).map((l) => [l.kind, l.amount, l.runId])).toEqual([
      ['daily_payout', 1000, run.runId], ['tds', -50, run.runId], ['admin_charge', -50, run.runId], ['bank_payout', -900, run.runId],
    ]);
    // b: ₹18 net, ₹9 recovered first, only the rest sent.
    expect((await ledgerOf(t.database, b)).slice(-5).map((l) => [l.kind, l.amount])).toEqual([
      ['daily_payout', 2000], ['tds', -100], ['admin_charge', -100], ['recovery', -900], ['bank_payout', -900],
    ]);
    expect([await balanceOf(t.database, a), await balanceOf(t.database, b), await owed(b)]).toEqual([0, 0, 0]);
    expect(await ledgerOf(t.database, nobank)).toEqual([]);
    // Each member's bank_payout is in their chunk's transfer (the credits, the recovery), whose
    // withdrawals_payable leg holds what the chunk sent (on PostgreSQL a and b may be in two chunks).
    const transfers = await t.database.query<{ apart: string; payable: string }>(`
      select count(*) filter (where l.transfer_id <> d.transfer_id)::text as apart,
             (select sum(g.amount_paise) from book_legs g where g.account = 'withdrawals_payable'
               and g.transfer_id in (select transfer_id from ledger_entries where run_id = $3 and kind = 'daily_payout'))::text as payable
        from ledger_entries l join ledger_entries d on d.user_id = l.user_id and d.run_id = l.run_id and d.kind = 'daily_payout'
       where l.user_id in ($1, $2) and l.run_id = $3 and l.kind = 'bank_payout'`, [a, b, run.runId]);
    expect(transfers).toEqual([{ apart: '0', payable: '1800' }]);

    const { batch, lines } = await gather();
    expect(batch).toMatchObject({ lines: 2, total: 18 });
    // The lines follow the bank payouts' ledger order, and on PostgreSQL two chunks may pay a and b
    // in either order (it failed once in CI with a first).
    const byMember = (x: unknown[], y: unknown[]) => Number(x[0]) - Number(y[0]);
    expect(lines.map((l) => [l.userId, l.source, l.amount]).sort(byMember))
      .toEqual([[b, 'daily_payout', 9], [a, 'daily_payout', 9]].sort(byMember));
    const ref = Object.fromEntries(lines.map((l) => [l.userId, l.reference]));
    await release(batch.id);
    const file = (await get(`/bank-transfers/batches/${batch.id}/file?template=generic`)).body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(file.slice(1).filter((row) => row.includes(ref[b]))).toEqual([expect.stringMatching(new RegExp(`,9\\.00,${ref[b]},Daily payout ${ref[b]}$`))]);
    const res = await respond([`${ref[a]},SUCCESS,UTR0001,`, `${ref[b]},REJECTED,,Account closed`]);
    expect(res.json().data).toMatchObject({ settled: 1, held: 1 });
    expect([await balanceOf(t.database, a), await balanceOf(t.database, b)]).toEqual([0, 0]);
    expect(await approveReturns(res)).toMatchObject({ returned: 1 });
    expect([await balanceOf(t.database, a), await balanceOf(t.database, b)]).toEqual([0, 900]);
  });

  it('a reversal before the gather cancels the bank payouts: nothing to send, wallets back, the preview as done', async () => {
    const day = addDays(now, -39);
    const a = await earner(day);
    const run = await runDay(day);
    const p = await preview(run.runId);
    expect(p).toMatchObject({ lines: 4, members: 1, gross: 10, deductions: 1, takenBack: 0, shortfall: 0, bankUnsent: 9, bankSent: 0 });
    const res = await reverse(run.runId);
    expect(res.json().data).toMatchObject({ status: 'reversed', shortfall: 0 });
    const lines = await ledgerOf(t.database, a);
    expect(lines.map((l) => [l.kind, l.amount])).toEqual([
      ['daily_payout', 1000], ['tds', -50], ['admin_charge', -50], ['bank_payout', -900],
      ['daily_payout', -1000], ['tds', 50], ['admin_charge', 50], ['bank_payout', 900],
    ]);
    expect(lines.length - 4).toBe(p.lines);
    expect(await balanceOf(t.database, a)).toBe(0);
    expect((await get('/bank-transfers/gatherable')).json().data.count).toBe(0);
    expect((await post('/bank-transfers/batches')).statusCode).toBe(409);
  });

  it('a reversal after the gather leaves the batched line, takes back what the wallet has, records the shortfall; a bank return then settles it', async () => {
    const day = addDays(now, -38);
    const a = await earner(day);
    const run = await runDay(day);
    const { batch, lines } = await gather();
    expect(lines.map((l) => l.userId)).toEqual([a]);
    const p = await preview(run.runId);
    expect(p).toMatchObject({ lines: 3, members: 1, takenBack: 0, shortfall: 9, shortfallMembers: 1, bankUnsent: 0, bankSent: 9 });
    const res = await reverse(run.runId);
    expect(res.json().data).toMatchObject({ status: 'reversed', shortfall: 9 });
    expect((await ledgerOf(t.database, a)).slice(4).map((l) => [l.kind, l.amount])).toEqual([['daily_payout', -100], ['tds', 50], ['admin_charge', 50]]);
    expect([await balanceOf(t.database, a), await owed(a)]).toEqual([0, 900]);
    expect((await get(`/bank-transfers/batches/${batch.id}/lines`)).json().data[0]).toMatchObject({ status: 'queued', amount: 9 });
    // The bank returns it: the money comes back to the wallet and settles what the member owes.
    await release(batch.id);
    const returned = await respond([`${lines[0].reference},REJECTED,,Account closed`]);
    expect(returned.json().data).toMatchObject({ held: 1 });
    expect(await approveReturns(returned)).toMatchObject({ returned: 1 });
    expect((await ledgerOf(t.database, a)).slice(-2).map((l) => [l.kind, l.amount])).toEqual([['bank_return', 900], ['recovery', -900]]);
    expect([await balanceOf(t.database, a), await owed(a)]).toEqual([0, 0]);
  });

  it('Pay Now of a bank-mode failure sends its net to the bank in the same transfer', async () => {
    const day = addDays(now, -37);
    const c = await earner(day, false);
    await runDay(day);
    const [payout] = await t.database.query<{ id: string }>(`select id::text from daily_payouts where user_id = $1 and status = 'Failure'`, [c]);
    await addBank(c);
    const res = await post('/transferAdmin', { userId: c, amount: 9, typeIncome: 'dailyPayout', payoutId: Number(payout.id) }, operator);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ balance: 0, status: 'Success' });
    const rows = await t.database.query<{ kind: string; amount: string; transfer_id: string }>(
      'select kind, amount_paise::text as amount, transfer_id::text from ledger_entries where user_id = $1 order by id', [c]);
    expect(rows.map((r) => [r.kind, Number(r.amount)])).toEqual([['daily_payout', 1000], ['tds', -50], ['admin_charge', -50], ['bank_payout', -900]]);
    expect(new Set(rows.map((r) => r.transfer_id)).size).toBe(1);
    const { lines } = await gather();
    expect(lines.map((l) => [l.userId, l.source, l.amount])).toEqual([[c, 'daily_payout', 9]]);
  });

  it('cancels a draft batch: its lines are gathered again; a batch past draft is refused, and so is releasing a cancelled one', async () => {
    const day = addDays(now, -36);
    const a = await earner(day);
    await runDay(day);
    const first = await gather();
    const cancelled = await post(`/bank-transfers/batches/${first.batch.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ message: `Bank batch ${first.batch.id} cancelled: its transfer is gathered again by the next batch`, data: { status: 'cancelled' } });
    expect((await get(`/bank-transfers/batches/${first.batch.id}/lines`)).json().data[0].status).toBe('cancelled');
    const [audit] = await t.database.query<{ entity_id: string }>(`select entity_id from audit_log where action = 'bank_batch_cancelled'`);
    expect(audit.entity_id).toBe(String(first.batch.id));
    expect((await post(`/bank-transfers/batches/${first.batch.id}/cancel`)).json()).toEqual({ success: false, message: `Bank batch ${first.batch.id} has already been cancelled` });
    expect((await post(`/bank-transfers/batches/${first.batch.id}/release`)).json()).toEqual({ success: false, message: `Bank batch ${first.batch.id} was cancelled: gather a new batch` });

    const again = await gather();
    expect(again.lines.map((l) => [l.userId, l.ledgerEntryId])).toEqual([[a, first.lines[0].ledgerEntryId]]);
    expect(again.lines[0].reference).not.toBe(first.lines[0].reference);
    const asked = await post(`/bank-transfers/batches/${again.batch.id}/release`);
    expect(asked.statusCode).toBe(202);
    const refused = await post(`/bank-transfers/batches/${again.batch.id}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`Bank batch ${again.batch.id} is awaiting release: only a draft batch, or one whose release was rejected or has expired, can be cancelled`);
    expect((await post(`/approvals/${asked.json().data.approvalId}/approve`, {}, ops[1].token)).statusCode).toBe(200);
    expect((await post(`/bank-transfers/batches/${again.batch.id}/cancel`)).json().message).toBe(`Bank batch ${again.batch.id} is released: only a draft batch, or one whose release was rejected or has expired, can be cancelled`);
    await respond([`${again.lines[0].reference},SUCCESS,UTR0002,`]);
  });

  it('cancels a batch whose release was rejected: its money is gathered again (it was held by the batch for good)', async () => {
    const day = addDays(now, -34);
    const a = await earner(day);
    await runDay(day);
    const held = await gather();
    const asked = await post(`/bank-transfers/batches/${held.batch.id}/release`);
    expect(asked.statusCode).toBe(202);
    const rejected = await post(`/approvals/${asked.json().data.approvalId}/reject`, { remarks: 'One account looks wrong' }, ops[1].token);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((await get('/bank-transfers/gatherable')).json().data.count).toBe(0);
    const cancelled = await post(`/bank-transfers/batches/${held.batch.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.status).toBe('cancelled');
    const [audit] = await t.database.query<{ before: { status: string } }>(
      `select before from audit_log where action = 'bank_batch_cancelled' and entity_id = $1`, [String(held.batch.id)]);
    expect(audit.before).toEqual({ status: 'pending_release' });
    const again = await gather();
    expect(again.lines.map((l) => [l.userId, l.ledgerEntryId])).toEqual([[a, held.lines[0].ledgerEntryId]]);
    expect((await post(`/bank-transfers/batches/${held.batch.id}/release`)).json().message).toBe(`Bank batch ${held.batch.id} was cancelled: gather a new batch`);
    const released = await post(`/bank-transfers/batches/${again.batch.id}/release`);
    expect((await post(`/approvals/${released.json().data.approvalId}/approve`, {}, ops[1].token)).statusCode).toBe(200);
    await respond([`${again.lines[0].reference},SUCCESS,UTR0034,`]);
  });

  it('audits every webhook, a replay marked duplicate; a return for a member deleted since stays in transit and the rest applies', async () => {
    const day = addDays(now, -35);
    const a = await earner(day);
    const gone = await earner(day);
    await runDay(day);
    const { batch, lines } = await gather();
    await release(batch.id);
    const ref = Object.fromEntries(lines.map((l) => [l.userId, l.reference]));
    await t.database.query('update users set deleted_at = now() where user_id = $1', [gone]);
    const res = await respond([`${ref[a]},REJECTED,,Account closed`, `${ref[gone]},REJECTED,,Account closed`]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ held: 1, memberDeleted: 1, problems: [{ line: 2, reference: ref[gone], outcome: 'member_deleted' }] });
    expect(res.json().message).toBe(
      `Settled 0, returned 0, returns awaiting approval 1 (request ${res.json().data.returnsApprovalId}), duplicates 0, unknown 0, member deleted (handle by hand) 1`);
    expect(await balanceOf(t.database, a)).toBe(0);
    expect(await approveReturns(res)).toMatchObject({ returned: 1, memberDeleted: 0 });
    expect(await balanceOf(t.database, a)).toBe(900);
    const transit = (await get('/bank-transfers/in-transit')).json().data;
    expect(transit).toEqual([expect.objectContaining({ userId: gone, status: 'in_transit', returnReason: expect.stringContaining('member was deleted') })]);

    // The webhook settles the deleted member's line (the bank paid after all): audited, and its replay too.
    const raw = JSON.stringify({ reference: ref[gone], status: 'SUCCESS', utr: 'UTR0003', eventId: 'ev-1' });
    const hook = () => t.app.inject({ method: 'POST', url: '/api/bank-transfers/webhook', payload: raw,
      headers: { 'content-type': 'application/json', 'x-bank-signature': signWebhook('dev-bank-webhook-secret', raw) } });
    expect((await hook()).json().data.outcome).toBe('settled');
    expect((await hook()).json().data.outcome).toBe('duplicate');
    const audits = await t.database.query<{ actor_id: string | null; entity_id: string; after: Record<string, unknown> | string }>(
      `select actor_id::text, entity_id, after from audit_log where action = 'bank_webhook_applied' order by id`);
    const after = audits.map((r) => (typeof r.after === 'string' ? JSON.parse(r.after) : r.after));
    expect(audits.map((r) => [r.actor_id, r.entity_id])).toEqual([[null, ref[gone]], [null, ref[gone]]]);
    expect(after).toEqual([
      expect.objectContaining({ provider: 'payout provider', reference: ref[gone], status: 'SUCCESS', utr: 'UTR0003', outcome: 'settled', duplicate: false }),
      expect.objectContaining({ outcome: 'duplicate', duplicate: true }),
    ]);
  });
});
