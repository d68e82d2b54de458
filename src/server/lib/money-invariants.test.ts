import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureReferenceData } from '../db/bootstrap.ts';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { seedDemoData } from '../db/demo-data.ts';
import { createTestApp, testDbKind, type TestContext } from '../test/harness.ts';
import { throwawayPostgres } from '../test/throwaway-postgres.ts';
import { moneyInvariantViolations, verifyLedger } from './money-invariants.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ members: 20 });
});
afterAll(() => t.close());

async function check(database: Database) {
  const lines: string[] = [];
  const code = await verifyLedger(database, (line) => lines.push(line));
  return { code, out: lines.join('\n') };
}

describe('the money invariants check', () => {
  it('says what it checked and passes on a consistent ledger', async () => {
    const { code, out } = await check(t.database);
    expect(code).toBe(0);
    expect(out).toMatch(/^Checked [\d,]+ accounts and [\d,]+ ledger rows of \d+ kinds on (pglite|postgres):/);
    expect(out).toContain('every balance equals the sum of its ledger rows');
    expect(out).toContain('The money invariants hold.');
  });

  it('names the member whose cached balance no longer matches the ledger, and fails', async () => {
    const [member] = await t.database.query<{ user_id: number; balance_paise: string }>(
      'select user_id, balance_paise::text from users where balance_paise > 0 order by user_id limit 1');
    await t.database.query('update users set balance_paise = balance_paise + 100 where user_id = $1', [member.user_id]);
    try {
      const { code, out } = await check(t.database);
      expect(code).toBe(1);
      expect(out).toContain('The money invariants are BROKEN (1 violations):');
      expect(out).toContain(`member ${member.user_id}: balance ${Number(member.balance_paise) + 100} paise, ledger sum ${member.balance_paise} paise`);
    } finally {
      await t.database.query('update users set balance_paise = balance_paise - 100 where user_id = $1', [member.user_id]);
    }
    expect(await moneyInvariantViolations(t.database)).toEqual([]);
  });

  it('finds a ledger batch or a payout ledger entry that does not exist (links without a foreign key)', async () => {
    const [credit] = await t.database.query<{ id: number; batch_id: number }>(
      'select id::int8 as id, batch_id from ledger_entries where batch_id is not null order by id limit 1');
    expect(credit).toBeDefined();
    const [payout] = await t.database.query<{ id: number }>(
      `insert into daily_payouts (user_id, payout_date, amount_paise, status, ledger_entry_id)
       select user_id, date '1999-01-01', 100, 'Success', (select max(id) + 1000 from ledger_entries) from users order by user_id limit 1
       returning id::int8 as id`);
    await t.database.query('update income_batches set batch_id = -batch_id where batch_id = $1', [credit.batch_id]);
    try {
      const violations = await moneyInvariantViolations(t.database);
      expect(violations).toContain(`ledger entry ${credit.id}: batch ${credit.batch_id} does not exist`);
      expect(violations.some((v) => v.startsWith(`daily payout ${payout.id}: ledger entry `) && v.endsWith(' does not exist'))).toBe(true);
    } finally {
      await t.database.query('update income_batches set batch_id = -batch_id where batch_id = $1', [-credit.batch_id]);
      await t.database.query('delete from daily_payouts where id = $1', [payout.id]);
    }
    expect(await moneyInvariantViolations(t.database)).toEqual([]);
  });

  it('finds a bank line in transit that bank_in_transit does not list, and a listed line that is not in transit (drizzle/0037)', async () => {
    const [batch] = await t.database.query<{ id: number }>(
      `insert into bank_batches (status, created_by, lines, total_paise, released_at) values ('released', 1, 2, 300, now()) returning id::int8 as id`);
    const lines = await t.database.query<{ id: number }>(`
      with ids as (select nextval(pg_get_serial_sequence('bank_transfer_lines', 'id')) as id, k from generate_series(1, 2) k)
      insert into bank_transfer_lines (id, batch_id, user_id, ledger_entry_id, amount_paise, beneficiary_name, account_number, ifsc, reference, status, in_transit_since)
      select id, $1, 1, -990 - k, 100 * k, 'A', '1', 'HDFC0000001', 'BT' || $1::int8 || '-' || id, case k when 1 then 'in_transit' else 'settled' end, now()
        from ids order by k returning id::int8 as id`, [batch.id]);
    await t.database.query(`insert into bank_in_transit (line_id, batch_id, amount_paise, since) values ($1, $2, 200, now())`, [lines[1].id, batch.id]);
    try {
      const violations = await moneyInvariantViolations(t.database);
      expect(violations).toContain(`bank line ${lines[0].id}: in transit, not listed in bank_in_transit`);
      expect(violations).toContain(`bank line ${lines[1].id}: listed in transit, not in transit`);
    } finally {
      await t.database.query('delete from bank_in_transit where batch_id = $1', [batch.id]);
      await t.database.query('delete from bank_transfer_lines where batch_id = $1', [batch.id]);
      await t.database.query('delete from bank_batches where id = $1', [batch.id]);
    }
    expect(await moneyInvariantViolations(t.database)).toEqual([]);
  });

  it('finds a payout of a member who does not exist, and refuses to delete a member with money rows (no foreign key)', async () => {
    const [orphan] = await t.database.query<{ id: number }>(
      `insert into daily_payouts (user_id, payout_date, amount_paise, status) values (987654321, date '1999-01-02', 100, 'Failure')
       returning id::int8 as id`);
    try {
      expect(await moneyInvariantViolations(t.database)).toContain(`daily payout ${orphan.id}: member 987654321 does not exist`);
    } finally {
      await t.database.query('delete from daily_payouts where id = $1', [orphan.id]);
    }
    const [holder] = await t.database.query<{ user_id: number }>('select user_id::int8 as user_id from ledger_entries order by id limit 1');
    await expect(t.database.query('delete from users where user_id = $1', [holder.user_id]))
      .rejects.toThrow(`member ${holder.user_id} has ledger entries or payouts and cannot be deleted`);
    expect(await moneyInvariantViolations(t.database)).toEqual([]);
  });

  it('finds a day total that drifted from the ledger', async () => {
    const [day] = await t.database.query<{ day: string; kind: string; shard: number }>(
      'select day::text, kind, shard from ledger_daily order by day, kind, shard limit 1');
    await t.database.query('update ledger_daily set total_paise = total_paise + 1 where day = $1 and kind = $2 and shard = $3', [day.day, day.kind, day.shard]);
    try {
      const { code, out } = await check(t.database);
      expect(code).toBe(1);
      expect(out).toMatch(new RegExp(`kind ${day.kind}: ledger -?\\d+ paise, ledger_daily -?\\d+ paise`));
    } finally {
      await t.database.query('update ledger_daily set total_paise = total_paise - 1 where day = $1 and kind = $2 and shard = $3', [day.day, day.kind, day.shard]);
    }
  });

  it('finds a day whose kept debits or credits drifted from its lines or legs (ledger_daily, book_daily)', async () => {
    const [l] = await t.database.query<{ day: string; kind: string; shard: number }>(
      'select day::text, kind, shard from ledger_daily order by day, kind, shard limit 1');
    const [b] = await t.database.query<{ day: string; account: string; shard: number }>(
      'select day::text, account, shard from book_daily order by day, account, shard limit 1');
    const move = (by: number) => Promise.all([
      t.database.query('update ledger_daily set debit_paise = debit_paise + $4 where day = $1 and kind = $2 and shard = $3', [l.day, l.kind, l.shard, by]),
      t.database.query('update book_daily set credit_paise = credit_paise + $4 where day = $1 and account = $2 and shard = $3', [b.day, b.account, b.shard, by]),
    ]);
    await move(1);
    try {
      const found = await moneyInvariantViolations(t.database);
      expect(found).toContainEqual(expect.stringMatching(new RegExp(`^kind ${l.kind} on ${l.day}: ledger debits \\d+ and credits \\d+ paise, ledger_daily \\d+ and \\d+$`)));
      expect(found).toContainEqual(expect.stringMatching(new RegExp(`^account ${b.account} on ${b.day}: legs debit \\d+ and credit \\d+ paise, book_daily \\d+ and \\d+$`)));
    } finally {
      await move(-1);
    }
    expect(await moneyInvariantViolations(t.database)).toEqual([]);
  });
});

describe('npm run verify-ledger', () => {
  it('checks the configured database, exits 0 while the invariants hold and 1 once one is broken', { timeout: 180_000 }, async () => {
    // The database a server would be configured with: DATABASE_URL, or the PGlite in DATA_DIR.
    let env: Record<string, string>;
    let open: () => Promise<Database>;
    let cleanUp: () => Promise<void>;
    if (testDbKind === 'postgres') {
      const throwaway = await throwawayPostgres('bo_verify');
      env = { DATABASE_URL: throwaway.url };
      open = () => openPostgres(throwaway.url, 1);
      cleanUp = throwaway.drop;
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-ledger-'));
      env = { DATA_DIR: dir };
      open = () => openPglite(dir);
      cleanUp = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    const verify = () =>
      run('node', ['--import', 'tsx', 'src/server/lib/verify-ledger-cli.ts'], { cwd: ROOT, env: { ...process.env, ...env } })
        .then(({ stdout }) => ({ code: 0, stdout }))
        .catch((err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }));
    try {
      let database = await open();
      await database.migrate();
      await ensureReferenceData(database);
      await seedDemoData(database, { members: 15, days: 10 });
      await database.close();

      const good = await verify();
      expect(good.code).toBe(0);
      expect(good.stdout).toContain('The money invariants hold.');

      database = await open();
      const [member] = await database.query<{ user_id: number }>('select user_id from users where balance_paise > 0 order by user_id limit 1');
      await database.query('update users set balance_paise = balance_paise - 1 where user_id = $1', [member.user_id]);
      await database.close();

      const bad = await verify();
      expect(bad.code).toBe(1);
      expect(bad.stdout).toContain(`member ${member.user_id}: balance`);
    } finally {
      await cleanUp();
    }
  });
});
