import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/tokens.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { moneyHeaders, newMember } from '../wallet/money-test-kit.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Listed {
  action: string;
  actorId: number | null;
  actorName: string | null;
}

describe('finding 10: the audit log keeps the name the actor had when they acted', () => {
  it('shows the old name after the operator is renamed, for plain changes and money movements with or without a key', async () => {
    const operator = await accountWithPermissions(t.database, ['ranks_manage', 'wallet_manage']);
    const reader = await accountWithPermissions(t.database, ['audit_view']);
    const [me] = await t.database.query<{ user_id: number; full_name: string }>(
      'select s.user_id, u.full_name from sessions s join users u using (user_id) where s.token_hash = $1', [hashToken(operator)]);
    const operatorId = Number(me.user_id);
    const member = await newMember(t.database, 'Audited Member');

    expect((await t.app.inject({
      method: 'POST', url: '/api/ranks/createRank', headers: bearer(operator), payload: { name: 'Audit Gold' },
    })).statusCode).toBeLessThan(300);
    expect((await t.app.inject({
      method: 'POST', url: '/api/wallets/userWalletRecharge', headers: moneyHeaders(operator),
      payload: { userId: member, amount: 10, transactionType: 'wallet_recharge' },
    })).statusCode).toBe(200);
    expect((await t.app.inject({
      method: 'POST', url: '/api/wallets/userWalletRecharge', headers: bearer(operator),
      payload: { userId: member, amount: 5, transactionType: 'wallet_withdrawal' },
    })).statusCode).toBe(200);

    // The operator is renamed afterwards (a name change on the Staff screen, or a marriage).
    await t.database.query(`update users set full_name = 'Renamed Operator' where user_id = $1`, [operatorId]);

    const res = await t.app.inject({ method: 'GET', url: `/api/audit/logs?actor=${operatorId}`, headers: bearer(reader) });
    expect(res.statusCode).toBe(200);
    const rows = (res.json().data as Listed[]).map((r) => [r.action, r.actorId, r.actorName]);
    expect(rows).toHaveLength(3);
    expect(rows.every(([, id, name]) => id === operatorId && name === me.full_name)).toBe(true);
    const stored = await t.database.query<{ actor_name: string }>('select actor_name from audit_log where actor_id = $1', [operatorId]);
    expect(stored.map((r) => r.actor_name)).toEqual([me.full_name, me.full_name, me.full_name]);
  });

  it('falls back to the current name for rows written before names were stored', async () => {
    const reader = await accountWithPermissions(t.database, ['audit_view']);
    const [admin] = await t.database.query<{ user_id: number; full_name: string }>(
      `select user_id, full_name from users where email = 'admin@test.local'`);
    await t.database.query(
      `insert into audit_log (actor_id, actor_name, action, entity, entity_id) values ($1, null, 'legacy_change', 'rank', '1')`,
      [admin.user_id]);
    const res = await t.app.inject({ method: 'GET', url: '/api/audit/logs?action=legacy_change', headers: bearer(reader) });
    expect(res.json().data).toMatchObject([{ action: 'legacy_change', actorId: Number(admin.user_id), actorName: admin.full_name }]);
  });
});
