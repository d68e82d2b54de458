import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, caller, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';

let t: TestContext;
let admin: Record<string, string>;
let noPermission: Record<string, string>;
let memberId: number;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await t.login());
  noPermission = await plainAccount(t);
  call = caller(t, admin);
  memberId = await addMember(1);
});
afterAll(() => t.close());

async function addMember(n: number): Promise<number> {
  const res = await call('POST', '/api/users/register', {
    fullName: `Bank Member ${n}`, dob: '1985-03-03', email: `bank${n}@test.local`, phone: `96000000${String(n).padStart(2, '0')}`,
  });
  return res.json().user.userId;
}


let acct = 100000000;
const account = (extra: Record<string, unknown> = {}) => ({
  userId: memberId, accountHolderName: 'Bank Member 1', accountNumber: String((acct += 1)), ifsc: 'SBIN0001234', bank: 'State Bank of India', branch: 'Pune', ...extra,
});
const banksOf = async (userId = memberId) => (await call('GET', `/api/banks/getBanksByUserId/${userId}`)).json().data;

describe('bank accounts', () => {
  it('a member without accounts has an empty list; unknown members 404', async () => {
    expect((await call('GET', `/api/banks/getBanksByUserId/${memberId}`)).json()).toEqual({ success: true, data: [] });
    const unknown = await call('GET', '/api/banks/getBanksByUserId/999999999');
    expect(unknown.statusCode).toBe(404);
  });

  it('the first account becomes primary; a new primary, once a second operator approves it, unsets the old one in one transaction', async () => {
    const first = await call('POST', '/api/banks/createBankAccount', account({ ifsc: 'hdfc0000123' }));
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ success: true, message: 'Bank account created successfully', data: { isPrimary: true, ifsc: 'HDFC0000123', userId: memberId } });
    const second = (await call('POST', '/api/banks/createBankAccount', account())).json().data;
    expect(second.isPrimary).toBe(false);
    // Asked to be primary over the first: added, and filed for a second operator.
    const third = await call('POST', '/api/banks/createBankAccount', account({ isPrimary: true }));
    expect(third.statusCode).toBe(202);
    const list = await banksOf();
    expect(list.filter((b: { isPrimary: boolean }) => b.isPrimary).map((b: { bankId: number }) => b.bankId)).toEqual([first.json().data.bankId]);
    expect(list[0].bankId).toBe(first.json().data.bankId); // primary first
    expect(list).toHaveLength(3);
    expect(Object.keys(list[0]).sort()).toEqual(['_id', 'accountHolderName', 'accountNumber', 'bank', 'bankId', 'branch', 'createdAt', 'ifsc', 'isPrimary', 'userId']);
    const thirdId: number = list[2].bankId;

    const checker = bearer(await accountWithPermissions(t.database, ['money_approve']));
    const approve = (id: number) => t.app.inject({ method: 'POST', url: `/api/approvals/${id}/approve`, headers: { ...checker, 'idempotency-key': randomUUID() } });
    expect((await approve(third.json().data.approvalId)).statusCode).toBe(200);
    expect((await banksOf()).filter((b: { isPrimary: boolean }) => b.isPrimary).map((b: { bankId: number }) => b.bankId)).toEqual([thirdId]);

    const promoted = await call('PUT', `/api/banks/updateBank/${second.bankId}`, { isPrimary: true, branch: '' });
    expect(promoted.statusCode).toBe(202);
    expect((await approve(promoted.json().data.approvalId)).statusCode).toBe(200);
    const after = await banksOf();
    expect(after.filter((b: { isPrimary: boolean }) => b.isPrimary).map((b: { bankId: number }) => b.bankId)).toEqual([second.bankId]);
    expect(after.find((b: { bankId: number }) => b.bankId === second.bankId).branch).toBeNull();

    // The primary is not deleted; another account is.
    expect((await call('DELETE', `/api/banks/deleteBank/${second.bankId}`)).statusCode).toBe(409);
    expect((await call('DELETE', `/api/banks/deleteBank/${thirdId}`)).json()).toEqual({ success: true, message: 'Bank account deleted successfully' });
    expect(await banksOf()).toHaveLength(2);
    const log = await t.database.query<{ action: string; entity_id: string; before: { accountNumber?: string; isPrimary?: boolean } | null; after: { accountNumber?: string; isPrimary?: boolean } | null }>(
      `select action, entity_id, before, after from audit_log where entity = 'bank_account' and action in ('create', 'delete') order by id`,
    );
    expect(log.map((l) => [l.action, Number(l.entity_id)])).toEqual([
      ['create', first.json().data.bankId], ['create', second.bankId], ['create', thirdId], ['delete', thirdId],
    ]);
    // Account numbers are kept masked in the audit log, as on screen.
    for (const l of log) for (const row of [l.before, l.after]) if (row) expect(row.accountNumber).toMatch(/^X+\d{4}$/);
  });

  it('keeps exactly one primary: a first account is primary even if asked otherwise; the primary cannot be unset', async () => {
    const member = await addMember(3);
    const only = await call('POST', '/api/banks/createBankAccount', account({ userId: member, isPrimary: false }));
    expect(only.json().data.isPrimary).toBe(true);
    const unset = await call('PUT', `/api/banks/updateBank/${only.json().data.bankId}`, { isPrimary: false });
    expect(unset.statusCode).toBe(400);
    expect(unset.json()).toMatchObject({
      success: false,
      message: "A member's primary account stays primary until another account is made primary",
      errors: [{ field: 'isPrimary' }],
    });
    expect((await banksOf(member)).map((b: { isPrimary: boolean }) => b.isPrimary)).toEqual([true]);
    // Nor deleted: the member's money would have nowhere to go but the next account added.
    expect((await call('DELETE', `/api/banks/deleteBank/${only.json().data.bankId}`)).statusCode).toBe(409);
    expect((await banksOf(member)).map((b: { isPrimary: boolean }) => b.isPrimary)).toEqual([true]);
  });

  it('validates IFSC, account number and required fields with 400', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ifsc: 'SBIN1001234' }, /IFSC/],
      [{ ifsc: 'SBI00012345' }, /IFSC/],
      [{ accountNumber: '12345678' }, /9 to 18 digits/],
      [{ accountNumber: '1234567890123456789' }, /9 to 18 digits/],
      [{ accountNumber: '12345abc90' }, /9 to 18 digits/],
      [{ accountHolderName: '' }, /Account holder name is required/],
      [{ bank: '' }, /Bank name is required/],
    ];
    for (const [override, message] of cases) {
      const res = await call('POST', '/api/banks/createBankAccount', account(override));
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      // Plain words, and the field it is about (the form marks it).
      expect(res.json().message).toMatch(message);
      expect(res.json().message).not.toMatch(/body|Invalid /);
      expect(res.json().errors[0].field).toBe(Object.keys(override)[0]);
    }
    const [some] = await banksOf();
    expect((await call('PUT', `/api/banks/updateBank/${some.bankId}`, { ifsc: 'bad' })).statusCode).toBe(400);
  });

  it('refuses the same account twice for a member (409) and unknown members or accounts (404)', async () => {
    const payload = account();
    expect((await call('POST', '/api/banks/createBankAccount', payload)).statusCode).toBe(201);
    const dup = await call('POST', '/api/banks/createBankAccount', payload);
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ message: 'This bank account (account number and IFSC) is already added for this member', errors: [{ field: 'accountNumber' }] });
    // Nor by editing another account into it (IFSC in any case).
    const other = (await call('POST', '/api/banks/createBankAccount', account())).json().data;
    const into = await call('PUT', `/api/banks/updateBank/${other.bankId}`, { accountNumber: payload.accountNumber, ifsc: payload.ifsc.toLowerCase() });
    expect(into.statusCode).toBe(409);
    expect((await banksOf()).filter((b: { accountNumber: string }) => b.accountNumber === payload.accountNumber)).toHaveLength(1);
    expect((await call('POST', '/api/banks/createBankAccount', account({ userId: 999999999 }))).statusCode).toBe(404);
    expect((await call('PUT', '/api/banks/updateBank/999999', { bank: 'X' })).statusCode).toBe(404);
    expect((await call('DELETE', '/api/banks/deleteBank/999999')).statusCode).toBe(404);
  });

  it('getAllBanks pages through accounts of live members, optionally of one member', async () => {
    const other = await addMember(2);
    await call('POST', '/api/banks/createBankAccount', account({ userId: other }));
    const all = (await call('GET', '/api/banks/getAllBanks?limit=2')).json();
    expect(all).toMatchObject({ success: true, page: 1, limit: 2 });
    expect(all.data).toHaveLength(2);
    const [{ n }] = await t.database.query<{ n: number }>('select count(*)::int as n from bank_accounts');
    expect(all.total).toBe(n);
    const mine = (await call('GET', `/api/banks/getAllBanks?userId=${other}`)).json();
    expect(mine.total).toBe(1);
    await call('DELETE', `/api/users/deleteByUserId/${other}`);
    expect((await call('GET', `/api/banks/getAllBanks?userId=${other}`)).json().total).toBe(0);
    expect((await call('GET', `/api/banks/getBanksByUserId/${other}`)).statusCode).toBe(404);
  });

  it('needs banks_view to read and banks_manage to change', async () => {
    const [some] = await banksOf();
    expect((await call('GET', `/api/banks/getBanksByUserId/${memberId}`, undefined, noPermission)).statusCode).toBe(403);
    expect((await call('GET', '/api/banks/getAllBanks', undefined, noPermission)).statusCode).toBe(403);
    expect((await call('POST', '/api/banks/createBankAccount', account(), noPermission)).statusCode).toBe(403);
    expect((await call('PUT', `/api/banks/updateBank/${some.bankId}`, { bank: 'X' }, noPermission)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/banks/deleteBank/${some.bankId}`, undefined, noPermission)).statusCode).toBe(403);
  });
});
