import { expect } from 'vitest';
import { fourEyesSuite, type Operator } from '../approvals/four-eyes-test-kit.ts';
import { newMember } from '../wallet/money-test-kit.ts';
import { signWebhook } from './bank-answers.service.ts';

/** The webhook secret of the test config (config.ts's development default). */
export const SECRET = 'dev-bank-webhook-secret';

type Imported = { json(): { data: { returnsApprovalId: number | null } } };

/**
 * The bank transfers tests' set-up: fourEyesSuite (one server per file, the money invariants after
 * every test) and the steps of money out to banks: members with a bank account, their withdrawals
 * gathered and released by a second operator, the bank's answers as a file or a signed webhook.
 */
export function bankSuite() {
  const suite = fourEyesSuite(100_000_000);
  const { ctx, operator, fund, post, get, recharge, approve } = suite;

  let serial = 0;
  async function memberWithBank(name: string, bank = true) {
    const userId = await newMember(ctx.t.database, name);
    await fund(userId, 1000);
    if (bank) {
      serial += 1;
      await ctx.t.database.query(
        `insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, is_primary) values ($1, $2, $3, $4, 'State Bank of India', true)`,
        [userId, name, `00${String(userId).padStart(8, '0')}${serial}`, 'SBIN0001234']);
    }
    return userId;
  }

  async function withdraw(op: Operator, userId: number, rupees: number) {
    const res = await recharge(op, userId, rupees, 'wallet_withdrawal');
    expect(res.statusCode, res.body).toBe(200);
  }

  async function accountBalances() {
    const rows = await ctx.t.database.query<{ account: string; total: string }>(
      'select account, sum(amount_paise)::text as total from book_legs group by account');
    return Object.fromEntries(rows.map((r) => [r.account, Number(r.total)]));
  }

  async function unbalancedTransfers() {
    return ctx.t.database.query(`
      select t.id from transfers t
        left join (select transfer_id, sum(amount_paise) s from book_legs group by transfer_id) b on b.transfer_id = t.id
        left join (select transfer_id, sum(amount_paise) s from ledger_entries where transfer_id is not null group by transfer_id) l on l.transfer_id = t.id
       where coalesce(b.s, 0) + coalesce(l.s, 0) <> 0`);
  }

  const importText = (who: Operator, text: string) => post(who, '/bank-transfers/responses', { text });

  /** A response file of these rows (under the header), imported by `who`. */
  const answerAs = (who: Operator, rows: string[]) => importText(who, ['Reference,Status,UTR,Reason', ...rows, ''].join('\r\n'));

  /** The provider's signed webhook. */
  const webhook = (body: Record<string, unknown>) => {
    const raw = JSON.stringify(body);
    return ctx.t.app.inject({
      method: 'POST', url: '/api/bank-transfers/webhook', payload: raw,
      headers: { 'content-type': 'application/json', 'x-bank-signature': signWebhook(SECRET, raw) },
    });
  };

  async function releaseBatch(maker: Operator, checker: Operator, batchId: number) {
    const asked = await post(maker, `/bank-transfers/batches/${batchId}/release`, {});
    expect(asked.statusCode, asked.body).toBe(202);
    const res = await approve(checker, asked.json().data.approvalId);
    expect(res.statusCode, res.body).toBe(200);
  }

  /** Members with a bank account, each withdrawing ₹`rupees`, gathered into one batch and released: the checker, the batch and its lines. */
  async function releasedWithdrawals(names: string[], rupees = 10) {
    const cashier = await operator('wallet_manage', 'wallet_view');
    const gatherer = await operator('bank_transfers');
    const checker = await operator('bank_transfers', 'money_approve');
    const members: number[] = [];
    for (const name of names) members.push(await memberWithBank(name));
    for (const m of members) await withdraw(cashier, m, rupees);
    const batch = (await post(gatherer, '/bank-transfers/batches', { template: 'generic' })).json().data;
    await releaseBatch(gatherer, checker, batch.id);
    const lines = (await get(checker, `/bank-transfers/batches/${batch.id}/lines?limit=100`)).json().data as { userId: number; reference: string }[];
    return { checker, batch, members, lines };
  }

  /** A second operator approves the returns an import held. */
  async function approveReturns(checker: Operator, imported: Imported) {
    const id = imported.json().data.returnsApprovalId;
    expect(id).not.toBeNull();
    const res = await approve(checker, id!);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  }

  return {
    ...suite, memberWithBank, withdraw, accountBalances, unbalancedTransfers, importText, answerAs, webhook, releaseBatch,
    releasedWithdrawals, approveReturns,
  };
}
