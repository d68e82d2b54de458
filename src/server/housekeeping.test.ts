import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHousekeeping, sweep } from './housekeeping.ts';
import { ADMIN_EMAIL, bearer, createTestApp, type TestContext } from './test/harness.ts';

let t: TestContext;
let adminId: number;
beforeAll(async () => {
  t = await createTestApp({ members: 3 });
  [{ user_id: adminId }] = await t.database.query<{ user_id: number }>('select user_id from users where email = $1', [ADMIN_EMAIL]);
});
afterAll(() => t.close());

const count = async (table: string) =>
  Number((await t.database.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n);

/** Old rows (past their retention) and young ones in every table housekeeping sweeps. */
async function fill(oldIdempotencyKeys: number) {
  await t.database.query(
    `insert into idempotency_keys (actor_id, key, route, request_hash, status_code, response, created_at)
     select $1, 'old-' || g, '/api/wallets/userWalletRecharge', 'h', 200, '{}', now() - interval '8 days' from generate_series(1, $2) g`,
    [adminId, oldIdempotencyKeys],
  );
  await t.database.query(
    `insert into idempotency_keys (actor_id, key, route, request_hash, status_code, response, created_at)
     values ($1, 'young-' || gen_random_uuid(), '/api/wallets/userWalletRecharge', 'h', 200, '{}', now() - interval '6 days')`,
    [adminId],
  );
  await t.database.query(
    `insert into login_failures (key, created_at) values
       ('email:old@test.local', now() - interval '25 hours'), ('email:young@test.local', now() - interval '23 hours')`,
  );
  await t.database.query(
    `insert into sessions (token_hash, user_id, expires_at) values
       ('expired-' || gen_random_uuid(), $1, now() - interval '1 minute'), ('live-' || gen_random_uuid(), $1, now() + interval '1 hour')`,
    [adminId],
  );
  await t.database.query(
    `insert into password_resets (token_hash, user_id, expires_at, used_at) values
       ('expired-' || gen_random_uuid(), $1, now() - interval '1 minute', null),
       ('used-' || gen_random_uuid(), $1, now() + interval '1 hour', now()),
       ('open-' || gen_random_uuid(), $1, now() + interval '1 hour', null)`,
    [adminId],
  );
  // Two-factor: a setup abandoned two days ago goes; a young setup and an enabled one stay.
  await t.database.query(
    `insert into two_factor (user_id, secret, enabled_at, created_at)
     select m.user_id, 'SECRET', case m.n when 3 then now() else null end,
            case m.n when 2 then now() - interval '1 hour' else now() - interval '2 days' end
       from (select user_id, row_number() over (order by user_id) as n from users where user_id <> $1 order by user_id limit 3) m
     on conflict (user_id) do update set enabled_at = excluded.enabled_at, created_at = excluded.created_at`,
    [adminId],
  );
}

describe('housekeeping', () => {
  it('removes what is past its retention, in batches, and keeps the rest', async () => {
    const before = {
      idempotency: await count('idempotency_keys'),
      failures: await count('login_failures'),
      sessions: await count('sessions'),
      resets: await count('password_resets'),
    };
    await fill(12_345); // more than two batches of 5,000
    expect(await sweep(t.database, 15)).toEqual({ idempotencyKeys: 12_345, loginFailures: 1, sessions: 1, passwordResets: 2, twoFactorSetups: 1 });
    expect(await count('idempotency_keys')).toBe(before.idempotency + 1);
    expect(await count('login_failures')).toBe(before.failures + 1);
    expect(await count('sessions')).toBe(before.sessions + 1);
    expect(await count('password_resets')).toBe(before.resets + 1);
    expect(await count('two_factor')).toBe(2);
    expect(await sweep(t.database, 15)).toEqual({ idempotencyKeys: 0, loginFailures: 0, sessions: 0, passwordResets: 0, twoFactorSetups: 0 });
  });

  it('keeps failed sign-ins for the whole sign-in window when it is longer than a day', async () => {
    await t.database.query(`insert into login_failures (key, created_at) values ('email:slow@test.local', now() - interval '30 hours')`);
    expect((await sweep(t.database, 48 * 60)).loginFailures).toBe(0);
    expect((await sweep(t.database, 15)).loginFailures).toBe(1);
  });

  it('leaves sign-in and a live session working', async () => {
    const token = await t.login();
    await sweep(t.database, 15);
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
  });

  it('runs on its timer, says what it removed, and stops', async () => {
    await fill(3);
    const lines: string[] = [];
    const stop = startHousekeeping(t.database, 15, (line) => lines.push(line), { firstAfterMs: 0 });
    for (const deadline = Date.now() + 10_000; lines.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    await stop();
    expect(lines).toEqual(['housekeeping removed 3 idempotencyKeys, 1 loginFailures, 1 sessions, 2 passwordResets, 1 twoFactorSetups']);
  });
});
