import { describe, expect, it } from 'vitest';
import { postEntry } from '../../db/books.ts';
import { balanceOf } from '../wallet/money-test-kit.ts';
import { activationSuite, BP, share } from './income-test-kit.ts';

/**
 * The activation's one write statement (activation.repository postActivation, issue 16): the
 * membership, the fee and every upline's level income move together or not at all, in the
 * order the ledger has always had, and a wallet posting racing it on a shared upline loses
 * nothing. The suite checks the money invariants after each test.
 */
const { operator, fund, db, member, plan, settings, chain, levelIncomeOf, activate } = activationSuite();

const membershipCount = async () => {
  const [row] = await db().query<{ value: number }>(`select coalesce(sum(value), 0)::int8 as value from stat_counters where name = 'membership_users'`);
  return Number(row.value);
};

describe('an activation\u2019s one write statement', () => {
  it('writes the fee, then each level in order, with compression past a deleted upline', async () => {
    await settings({ compression: true });
    const op = await operator('membership_manage');
    const p = await plan(10_000);
    const { uplines, bottom } = await chain(['active', 'deleted', 'no-membership', 'active', 'active']);
    await fund(bottom, 100);
    const res = await activate(op, { userId: bottom, planId: p.planId, paidVia: 'wallet' });
    expect(res.statusCode).toBe(201);
    const paid = [uplines[0], uplines[3], uplines[4]];
    expect(res.json().data.levelIncome).toEqual(paid.map((userId, i) => ({ level: i + 1, userId, amount: share(10_000, BP[i]) / 100 })));
    const rows = await db().query<{ user_id: number; kind: string; amount_paise: number; description: string }>(
      `select user_id::int8 as user_id, kind, amount_paise::int8 as amount_paise, description from ledger_entries
        where (user_id = $1 and kind = 'membership_fee') or description like $2 order by id`, [bottom, `% member ${bottom}`]);
    expect(rows.map((r) => [Number(r.user_id), r.kind, Number(r.amount_paise), r.description])).toEqual([
      [bottom, 'membership_fee', -10_000, `Membership ${p.name} (version ${p.versionId}), paid from the wallet`],
      ...paid.map((u, i) => [u, 'level_income', share(10_000, BP[i]), `Level ${i + 1} income on the membership of member ${bottom}`]),
    ]);
    expect(await balanceOf(db(), bottom)).toBe(0);
  });

  it('a refused activation writes nothing: no membership, no ledger row, no counter moved', async () => {
    await settings({ compression: false });
    const op = await operator('membership_manage');
    const p = await plan(50_000);
    const { uplines, bottom } = await chain(['active', 'active']);
    await fund(bottom, 499.99);
    const members = await membershipCount();

    const short = await activate(op, { userId: bottom, planId: p.planId, paidVia: 'wallet' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Insufficient wallet balance: the member has 499.99 and 500.00 was requested');
    expect(await membershipCount()).toBe(members);
    expect(await db().query('select 1 from memberships where user_id = $1', [bottom])).toEqual([]);
    expect(await levelIncomeOf(uplines)).toEqual([0, 0]);
    expect(await balanceOf(db(), bottom)).toBe(49_999);

    await fund(bottom, 0.01);
    expect((await activate(op, { userId: bottom, planId: p.planId, paidVia: 'wallet' })).statusCode).toBe(201);
    expect(await membershipCount()).toBe(members + 1);
    await fund(bottom, 500);
    const again = await activate(op, { userId: bottom, planId: p.planId, paidVia: 'wallet' });
    expect(again.statusCode).toBe(409);
    expect(await membershipCount()).toBe(members + 1);
    expect(await levelIncomeOf(uplines)).toEqual([share(50_000, BP[0]), share(50_000, BP[1])]);
    expect(await balanceOf(db(), bottom)).toBe(50_000);
  });

  it('activations racing wallet debits of their shared uplines lose no credit and no debit', async () => {
    await settings({ compression: false });
    const op = await operator('membership_manage');
    const p = await plan(20_000);
    const { uplines } = await chain(['active', 'active']);
    for (const u of uplines) await fund(u, 100);
    const buyers: number[] = [];
    for (let i = 0; i < 6; i++) buyers.push(await member(uplines[0], 'Buyer'));
    for (const b of buyers) await fund(b, 200);
    const debits = uplines.flatMap((userId) => Array.from({ length: 4 }, (_, i) => ({ userId, amountPaise: -(100 + i) })));

    const [answers] = await Promise.all([
      Promise.all(buyers.map((b) => activate(op, { userId: b, planId: p.planId, paidVia: 'wallet' }))),
      Promise.all(debits.map((d) => db().db.transaction((tx) => postEntry(tx, { ...d, kind: 'wallet_withdrawal', description: 'race' })))),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual(buyers.map(() => 201));
    const debited = (u: number) => debits.filter((d) => d.userId === u).reduce((sum, d) => sum + d.amountPaise, 0);
    expect(await Promise.all(uplines.map((u) => balanceOf(db(), u)))).toEqual([
      10_000 + 6 * share(20_000, BP[0]) + debited(uplines[0]),
      10_000 + 6 * share(20_000, BP[1]) + debited(uplines[1]),
    ]);
    for (const b of buyers) expect(await balanceOf(db(), b)).toBe(0);
  });
});
