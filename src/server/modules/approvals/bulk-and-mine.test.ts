import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/harness.ts';
import { balanceOf, moneyHeaders, newMember } from '../wallet/money-test-kit.ts';
import { fourEyesSuite, type Operator } from './four-eyes-test-kit.ts';

/** Issue 24: my requests, the pending count, bulk decisions under the same four-eyes rules, the CSV. */
const { ctx, operator, recharge, get } = fourEyesSuite(100_000_000);

const bulk = (who: Operator, payload: Record<string, unknown>, key?: string) =>
  ctx.t.app.inject({ method: 'POST', url: '/api/approvals/bulk', headers: moneyHeaders(who.token, key), payload });

/** A pending recharge above the threshold, filed by `maker`; its approval id. */
async function pending(maker: Operator, member: number, amount = 10_001): Promise<number> {
  const res = await recharge(maker, member, amount);
  expect(res.statusCode).toBe(202);
  return res.json().data.approvalId;
}

describe('my requests', () => {
  it('any signed-in operator sees only the requests they filed, with state, checker and reason', async () => {
    const maker = await operator('wallet_manage');
    const other = await operator('wallet_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    const mine = [await pending(maker, member), await pending(maker, member)];
    const theirs = await pending(other, member);
    const rejected = await bulk(checker, { action: 'reject', ids: [mine[0]], remarks: 'Wrong member' });
    expect(rejected.statusCode).toBe(200);

    // Without money_approve: the queue is refused, their own requests are not.
    expect((await get(maker, '/approvals')).statusCode).toBe(403);
    const res = await get(maker, '/approvals/mine');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((a: { id: number }) => a.id)).toEqual([mine[1], mine[0]]);
    expect(body.total).toBe(2);
    expect(body.data.every((a: { makerId: number }) => a.makerId === maker.userId)).toBe(true);
    expect(body.data.map((a: { id: number }) => a.id)).not.toContain(theirs);
    expect(body.data[1]).toMatchObject({ status: 'rejected', checkerName: checker.name, remarks: 'Wrong member' });
    const onlyPending = (await get(maker, '/approvals/mine?status=pending')).json();
    expect(onlyPending.data.map((a: { id: number }) => a.id)).toEqual([mine[1]]);
    // An account with no permission at all sees an empty list, never another's requests.
    const nobody = await operator();
    expect((await get(nobody, '/approvals/mine')).json()).toMatchObject({ data: [], total: 0 });
    expect((await ctx.t.app.inject({ method: 'GET', url: '/api/approvals/mine' })).statusCode).toBe(401);
  });

  it('my requests as CSV: only the caller\u2019s own (of the status), newest first, with the checker and their reason; no money_approve needed', async () => {
    const maker = await operator('wallet_manage');
    const other = await operator('wallet_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database, 'Mine Csv');
    const [first, second] = [await pending(maker, member), await pending(maker, member)];
    const theirs = await pending(other, member);
    expect((await bulk(checker, { action: 'reject', ids: [first], remarks: 'Wrong member' })).statusCode).toBe(200);
    const csv = await get(maker, '/approvals/mine.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="my-requests.csv"');
    const lines = csv.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Request,Kind,Member ID,Member,Amount (INR),Status,Maker,Requested At,Checker,Decided At,Remarks');
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([second, first]);
    expect(lines.join('\n')).not.toContain(`${theirs},`);
    expect(lines[2]).toMatch(new RegExp(`^${first},Wallet recharge,${member},Mine Csv,10001.00,rejected,${maker.name},.+\\+05:30,${checker.name},.+\\+05:30,Wrong member$`));
    const pendingOnly = (await get(maker, '/approvals/mine.csv?status=pending')).body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(pendingOnly.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([second]);
    expect((await get(maker, '/approvals/mine.csv?status=nope')).statusCode).toBe(400);
    expect((await ctx.t.app.inject({ method: 'GET', url: '/api/approvals/mine.csv' })).statusCode).toBe(401);
  });
});

describe('pending count', () => {
  it('counts the pending requests this checker may decide: not their own, not of their own wallet', async () => {
    const checker = await operator('money_approve', 'wallet_manage');
    const maker = await operator('wallet_manage');
    const before = (await get(checker, '/approvals/pending-count')).json().data.count;
    const member = await newMember(ctx.t.database);
    await pending(maker, member);
    await pending(checker, member); // the checker's own: not for them to decide
    expect((await get(checker, '/approvals/pending-count')).json().data.count).toBe(before + 1);
    expect((await get(maker, '/approvals/pending-count')).statusCode).toBe(403);
  });
});

describe('bulk decisions', () => {
  it('approve many: each under four eyes; the checker\u2019s own request is refused with why; a repeat is harmless', async () => {
    const maker = await operator('wallet_manage');
    const checker = await operator('money_approve', 'wallet_manage');
    const member = await newMember(ctx.t.database);
    const a = await pending(maker, member);
    const b = await pending(maker, member);
    const own = await pending(checker, member);
    const res = await bulk(checker, { action: 'approve', ids: [a, b, own, 999_999_999] });
    expect(res.statusCode).toBe(200);
    const { done, failed } = res.json().data;
    expect(done).toEqual([{ id: a }, { id: b }]);
    expect(failed).toEqual([
      { id: own, message: 'You asked for this movement yourself: another operator with money_approve must approve it' },
      { id: 999_999_999, message: 'Approval request 999999999 not found' },
    ]);
    expect(await balanceOf(ctx.t.database, member)).toBe(2 * 1_000_100);
    const states = await ctx.t.database.query<{ id: string; status: string; checker_id: string | null }>(
      'select id::text, status, checker_id::text from money_requests where id = any($1::int8[]) order by id::int8', [[a, b, own]]);
    expect(states.map((s) => s.status)).toEqual(['approved', 'approved', 'pending']);
    // One audit row per decision, as with single decisions.
    const audits = await ctx.t.database.query(`select 1 from audit_log where action = 'money_request_approved' and entity_id = any($1::text[])`, [[String(a), String(b)]]);
    expect(audits).toHaveLength(2);

    // The same bulk again (a new key): nothing is approved twice.
    const again = await bulk(checker, { action: 'approve', ids: [a, b] });
    expect(again.json().data).toEqual({ done: [{ id: a, note: 'Already approved' }, { id: b, note: 'Already approved' }], failed: [] });
    expect(await balanceOf(ctx.t.database, member)).toBe(2 * 1_000_100);
    // A retried chunk (same key): the first answer, replayed.
    const key = 'bulk-chunk-key-1';
    const c = await pending(maker, member);
    const first = await bulk(checker, { action: 'approve', ids: [c] }, key);
    const retry = await bulk(checker, { action: 'approve', ids: [c] }, key);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await balanceOf(ctx.t.database, member)).toBe(3 * 1_000_100);
  });

  it('reject many needs a reason; ids are checked; only money_approve may', async () => {
    const maker = await operator('wallet_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    const a = await pending(maker, member);
    const noReason = await bulk(checker, { action: 'reject', ids: [a] });
    expect(noReason.statusCode).toBe(400);
    expect(await balanceOf(ctx.t.database, member)).toBe(0);
    expect((await bulk(checker, { action: 'approve', ids: [] })).statusCode).toBe(400);
    expect((await bulk(checker, { action: 'approve', ids: Array.from({ length: 501 }, (_, i) => i + 1) })).statusCode).toBe(400);
    expect((await bulk(checker, { action: 'approve', ids: ['x'] })).statusCode).toBe(400);
    expect((await bulk(checker, { action: 'maybe', ids: [a] })).statusCode).toBe(400);
    expect((await bulk(maker, { action: 'approve', ids: [a] })).statusCode).toBe(403);
    const res = await bulk(checker, { action: 'reject', ids: [a], remarks: 'Duplicate' });
    expect(res.json().data).toEqual({ done: [{ id: a }], failed: [] });
    const [row] = await ctx.t.database.query<{ status: string; remarks: string }>('select status, remarks from money_requests where id = $1', [a]);
    expect(row).toEqual({ status: 'rejected', remarks: 'Duplicate' });
    // Approving a rejected request in a later bulk: refused with why.
    expect((await bulk(checker, { action: 'approve', ids: [a] })).json().data.failed).toEqual([
      { id: a, message: `Approval request ${a} has already been rejected` },
    ]);
  });

  it('"select all matching" reads the ids of a status; the CSV lists the queue with India times', async () => {
    const maker = await operator('wallet_manage');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database, 'Csv Member');
    const a = await pending(maker, member);
    const ids = (await get(checker, '/approvals/ids?status=pending')).json();
    expect(ids.data).toContain(a);
    expect(ids).toMatchObject({ total: ids.data.length, capped: false });
    const csv = await ctx.t.app.inject({ method: 'GET', url: '/api/approvals.csv?status=pending', headers: bearer(checker.token) });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Request,Kind,Member ID,Member,Amount (INR),Status,Maker,Requested At,Checker,Decided At,Remarks');
    const line = lines.find((l) => l.startsWith(`${a},`))!;
    expect(line).toMatch(new RegExp(`^${a},Wallet recharge,${member},Csv Member,10001.00,pending,.+,\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{3})?\\+05:30,,,`));
    expect((await ctx.t.app.inject({ method: 'GET', url: '/api/approvals.csv', headers: bearer(maker.token) })).statusCode).toBe(403);
  });
});
