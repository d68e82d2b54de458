import { describe, expect, it } from 'vitest';
import { fourEyesSuite } from '../approvals/four-eyes-test-kit.ts';
import { newMember } from '../wallet/money-test-kit.ts';

/**
 * Issue 22, finding 11, as the attacker's steps: bank accounts added to staff accounts, and a
 * member's account number changed by one operator with nothing but two masked numbers in the log.
 */
const { ctx, operator, get, approve } = fourEyesSuite(100_000_000);

let serial = 0;
const account = (userId: number, extra: Record<string, unknown> = {}) => ({
  userId, accountHolderName: 'Asha Rao', accountNumber: `5010020030${String((serial += 1)).padStart(4, '0')}`, ifsc: 'HDFC0001234',
  bank: 'HDFC Bank', branch: 'Pune', ...extra,
});
const send = (who: { token: string }, method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
  ctx.t.app.inject({ method, url: `/api${url}`, headers: { authorization: `Bearer ${who.token}` }, payload });
const bankRow = async (bankId: number) =>
  (await ctx.t.database.query<{ account_number: string; ifsc: string; account_holder_name: string }>(
    'select account_number, ifsc, account_holder_name from bank_accounts where bank_id = $1', [bankId]))[0];

describe('bank accounts belong only to members (finding 11)', () => {
  it('adding a bank account for a staff account (the administrator\u2019s or a colleague\u2019s) is refused and writes nothing', async () => {
    const op = await operator('banks_manage', 'banks_view');
    const colleague = await operator('dashboard_view');
    const [admin] = await ctx.t.database.query<{ user_id: string }>(
      `select u.user_id::text from users u join roles r on r.role_id = u.role_id where r.name = 'Admin' order by u.user_id limit 1`);
    for (const userId of [Number(admin.user_id), colleague.userId]) {
      const res = await send(op, 'POST', '/banks/createBankAccount', account(userId));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false, message: `Bank accounts belong to members: user ${userId} is a staff account that signs in to this panel`,
      });
    }
    expect(await ctx.t.database.query('select 1 from bank_accounts b join users u on u.user_id = b.user_id where u.can_sign_in')).toEqual([]);
  });
});

describe('a bank account number change is a four-eyes change (finding 11)', () => {
  it('is filed (202), shown to the checker whole, applied only by another operator with money_approve, and audited whole', async () => {
    const maker = await operator('banks_manage', 'banks_view', 'money_approve');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database, 'Asha Rao');
    const created = await send(maker, 'POST', '/banks/createBankAccount', account(member));
    expect(created.statusCode).toBe(201);
    const { bankId, accountNumber: oldNumber } = created.json().data;

    // The attacker points the member's payouts at their own account.
    const changed = await send(maker, 'PUT', `/banks/updateBank/${bankId}`, { accountNumber: '999988887777', ifsc: 'ICIC0000001' });
    expect(changed.statusCode).toBe(202);
    expect(changed.json().message).toMatch(/awaits approval/);
    const approvalId: number = changed.json().data.approvalId;
    expect(await bankRow(bankId)).toMatchObject({ account_number: oldNumber, ifsc: 'HDFC0001234' });

    // A second change of the same account while one waits is refused.
    const second = await send(maker, 'PUT', `/banks/updateBank/${bankId}`, { accountNumber: '111122223333' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(`A change of this bank account already awaits approval (request ${approvalId})`);

    // The checker sees the whole old and new numbers.
    const shown = await get(checker, `/approvals/${approvalId}`);
    expect(shown.json().data).toMatchObject({
      kind: 'bank_account_change', userId: member, amount: 0, status: 'pending',
      details: {
        bankId, changes: { accountNumber: '999988887777', ifsc: 'ICIC0000001' },
        before: { accountNumber: oldNumber, ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao', bank: 'HDFC Bank' },
      },
    });

    // Nobody approves their own change.
    const own = await approve(maker, approvalId);
    expect(own.statusCode).toBe(403);
    expect(await bankRow(bankId)).toMatchObject({ account_number: oldNumber });

    const approved = await approve(checker, approvalId);
    expect(approved.statusCode).toBe(200);
    expect(await bankRow(bankId)).toMatchObject({ account_number: '999988887777', ifsc: 'ICIC0000001' });
    const [logged] = await ctx.t.database.query<{ actor_id: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
      `select actor_id::text, before, after from audit_log where entity = 'bank_account' and entity_id = $1 and action = 'update' order by id desc limit 1`,
      [String(bankId)]);
    expect(Number(logged.actor_id)).toBe(checker.userId);
    expect(logged.before).toMatchObject({ accountNumber: oldNumber, ifsc: 'HDFC0001234' });
    expect(logged.after).toMatchObject({ accountNumber: '999988887777', ifsc: 'ICIC0000001', makerId: maker.userId });
  });

  it('the holder\u2019s name still changes at once; an IFSC alone is filed too', async () => {
    const op = await operator('banks_manage', 'banks_view');
    const member = await newMember(ctx.t.database);
    const first = (await send(op, 'POST', '/banks/createBankAccount', account(member))).json().data;
    const other = (await send(op, 'POST', '/banks/createBankAccount', account(member))).json().data;
    const renamed = await send(op, 'PUT', `/banks/updateBank/${first.bankId}`, { accountHolderName: 'Asha R. Rao', accountNumber: first.accountNumber });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ message: 'Bank account updated successfully', data: { accountHolderName: 'Asha R. Rao' } });
    expect((await send(op, 'PUT', `/banks/updateBank/${other.bankId}`, { ifsc: 'sbin0000999' })).statusCode).toBe(202);
    expect((await bankRow(other.bankId)).ifsc).toBe('HDFC0001234');
  });

  it('an approval after the account changed again (or was deleted) is refused and changes nothing', async () => {
    const maker = await operator('banks_manage', 'banks_view');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database);
    const { bankId } = (await send(maker, 'POST', '/banks/createBankAccount', account(member))).json().data;
    const filed = await send(maker, 'PUT', `/banks/updateBank/${bankId}`, { accountNumber: '123412341234' });
    expect(filed.statusCode).toBe(202);
    await ctx.t.database.query(`update bank_accounts set account_number = '555566667777' where bank_id = $1`, [bankId]);
    const res = await approve(checker, filed.json().data.approvalId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This bank account was changed after the request was filed; reject the request and file the change again');
    expect((await bankRow(bankId)).account_number).toBe('555566667777');
    expect((await get(checker, `/approvals/${filed.json().data.approvalId}`)).json().data.status).toBe('pending');
  });
});

describe('choosing the primary account is a four-eyes change (ninth session\u2019s review)', () => {
  const primaryOf = async (member: number) =>
    (await ctx.t.database.query<{ bank_id: string }>('select bank_id::text from bank_accounts where user_id = $1 and is_primary', [member]))
      .map((r) => Number(r.bank_id));
  const del = (who: { token: string }, bankId: number) =>
    ctx.t.app.inject({ method: 'DELETE', url: `/api/banks/deleteBank/${bankId}`, headers: { authorization: `Bearer ${who.token}` } });

  it('one operator cannot point a member\u2019s payouts at a new account: by adding it as primary, making it primary or deleting the primary', async () => {
    const op = await operator('banks_manage', 'banks_view');
    const checker = await operator('money_approve');
    const member = await newMember(ctx.t.database, 'Asha Rao');
    const original = (await send(op, 'POST', '/banks/createBankAccount', account(member))).json().data;
    expect(original.isPrimary).toBe(true);

    // The attacker adds their own account, asking for it to be primary: added, not primary, filed.
    const added = await send(op, 'POST', '/banks/createBankAccount', account(member, { accountNumber: '900090009000', isPrimary: true }));
    expect(added.statusCode).toBe(202);
    expect(added.json().message).toBe(
      'Bank account created; making it primary awaits approval by a second operator on the Approvals screen; payouts go to the current primary account until then');
    const [theirs] = (await ctx.t.database.query<{ bank_id: string; is_primary: boolean }>(
      `select bank_id::text, is_primary from bank_accounts where user_id = $1 and account_number = '900090009000'`, [member]));
    expect(theirs.is_primary).toBe(false);
    expect(await primaryOf(member)).toEqual([original.bankId]);
    const approvalId: number = added.json().data.approvalId;
    const shown = await get(checker, `/approvals/${approvalId}`);
    expect(shown.json().data.details).toMatchObject({
      bankId: Number(theirs.bank_id), changes: { isPrimary: true },
      before: { accountNumber: '900090009000' },
      primaryBefore: { bankId: original.bankId, accountNumber: original.accountNumber, ifsc: 'HDFC0001234', bank: 'HDFC Bank' },
    });

    // Making it primary directly, or deleting the primary so that another takes its place: refused.
    const again = await send(op, 'PUT', `/banks/updateBank/${theirs.bank_id}`, { isPrimary: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`A change of this bank account already awaits approval (request ${approvalId})`);
    const third = (await send(op, 'POST', '/banks/createBankAccount', account(member))).json().data;
    const made = await send(op, 'PUT', `/banks/updateBank/${third.bankId}`, { isPrimary: true });
    expect(made.statusCode).toBe(202);
    expect(made.json().message).toBe(
      'Making this account primary awaits approval by a second operator on the Approvals screen; payouts go to the current primary account until then');
    const removed = await del(op, original.bankId);
    expect(removed.statusCode).toBe(409);
    expect(removed.json().message).toBe(
      "A member's primary account can't be deleted: make another account primary first (a second operator approves it), or change this account's details");
    expect(await primaryOf(member)).toEqual([original.bankId]);

    // A second operator approves one; the other, filed against the same primary, is now stale.
    expect((await approve(checker, approvalId)).statusCode).toBe(200);
    expect(await primaryOf(member)).toEqual([Number(theirs.bank_id)]);
    const stale = await approve(checker, made.json().data.approvalId);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe('The member\u2019s primary account was changed after the request was filed; reject the request and file it again');
    expect(await primaryOf(member)).toEqual([Number(theirs.bank_id)]);
    // An account that is not primary is deleted at once.
    expect((await del(op, original.bankId)).statusCode).toBe(200);
  });

  it('a member\u2019s first account is primary at once, and stays: their only account is not deleted', async () => {
    const op = await operator('banks_manage', 'banks_view');
    const member = await newMember(ctx.t.database);
    const only = await send(op, 'POST', '/banks/createBankAccount', account(member, { isPrimary: true }));
    expect(only.statusCode).toBe(201);
    expect(only.json().data.isPrimary).toBe(true);
    expect((await del(op, only.json().data.bankId)).statusCode).toBe(409);
    expect(await primaryOf(member)).toEqual([only.json().data.bankId]);
  });
});
