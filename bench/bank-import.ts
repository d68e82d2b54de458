import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { post, postSet } from '../src/server/db/books.ts';
import { openPostgres, rowsOf } from '../src/server/db/client.ts';
import * as repo from '../src/server/modules/bank-transfers/bank-transfers.repository.ts';
import { ADMIN_ROLE } from '../src/contract/permissions.ts';
import { loadConfig } from '../src/server/config.ts';
import type { AuthContext, Ctx } from '../src/server/lib/context.ts';
import { approveRequest } from '../src/server/modules/approvals/approvals.service.ts';
import { applyAnswers } from '../src/server/modules/bank-transfers/bank-answers.service.ts';
import { insertUser } from '../src/server/modules/users/users.repository.ts';
import { parseResponseFile } from '../src/server/modules/bank-transfers/response-file.ts';
import type { CountRow } from '../src/server/db/rows.ts';
import type { bankTransferLines } from '../src/server/db/schema/bank-transfers.ts';
import type { roles } from '../src/server/db/schema/access.ts';
import type { users } from '../src/server/db/schema/members.ts';

type User = typeof users.$inferSelect;
/** A staff account (the maker and the checker of the bench's movements). */
type ActorRow = { user_id: User['userId'] };
type RoleRow = { role_id: (typeof roles.$inferSelect)['roleId'] };
type LineRefRow = Pick<typeof bankTransferLines.$inferSelect, 'id' | 'reference'>;

// BENCH_DATABASE_URL=postgres://…/<big database> node --import tsx bench/bank-import.ts
//   [--lines 1000000] [--rounds 5] [--rejected-every 20]
// Issue 25's "a 1M-line bank response file imports in ≤ 60 s", on a database that already holds
// members with money (a seeded 1M database, migrated to the books). Setup, not timed against the
// target: --lines approved withdrawals of ₹1 posted through the posting function (postSet, set-based:
// --rounds transfers, each one line for each of lines/rounds members whose wallet holds ≥ ₹rounds),
// a primary bank account for each such member that has none, one gathered batch (repo.gather),
// its release posted as the service posts it after the second operator's approval (one transfer
// withdrawals_payable → bank_in_transit, the lines in transit). Then a response CSV of one line per
// transfer (every --rejected-every'th REJECTED with a reason, the rest SUCCESS with a UTR) is
// written and imported as the service imports it: parseResponseFile, then applyAnswers in one
// transaction (the settle transfer; the rejected lines held for a second operator), then a second
// staff account approves the held returns (one bank_return transfer per line, approveRequest as
// the Approvals screen calls it). Timed: reading and parsing the file, applying it, the two
// together, and the approval. The database keeps what was posted.
const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL must name the (big) PostgreSQL database to use');
const lines = Number(option('lines') ?? 1_000_000);
const rounds = Number(option('rounds') ?? 5);
const rejectedEvery = Number(option('rejected-every') ?? 20);
const perRound = Math.ceil(lines / rounds);
const log = (m: string) => console.log(`[bench:bank-import] ${m}`);
const seconds = (since: number) => (Date.now() - since) / 1000;

const database = await openPostgres(url, 4);
const db = database.db;
try {
  // Two staff accounts: the maker imports the file (its returns are held), the checker approves
  // them; made (Administrator role) when the database has fewer (a seeded one has none).
  const staffIds = sql`select user_id from users where can_sign_in and deleted_at is null order by user_id limit 2`;
  let staff = rowsOf<ActorRow>(await db.execute(staffIds));
  for (let i = staff.length; i < 2; i++) {
    const [{ role_id: roleId }] = rowsOf<RoleRow>(await db.execute(sql`select role_id from roles where name = ${ADMIN_ROLE}`));
    const stamp = `${Date.now()}${i}`;
    await insertUser(db, { fullName: `Bench Staff ${i + 1}`, email: `bench.staff.${stamp}@bench.local`, phone: `7${stamp.slice(-9)}`, level: 1, roleId, canSignIn: true });
  }
  staff = rowsOf<ActorRow>(await db.execute(staffIds));
  const [actorId, checkerId] = staff.map((r) => Number(r.user_id));
  const config = loadConfig();
  /** A service's call context for a staff account of the bench (no request, no mail). */
  const ctxOf = (userId: number): Ctx => ({ database, config, mailer: null as never, auth: { userId } as AuthContext, ip: 'bench' });

  // The members who withdraw: the first perRound whose wallet covers `rounds` rupees. A database
  // whose wallets earlier runs of this bench have emptied has too few: the first perRound live
  // members are then topped up by `rounds` rupees each (one set-based wallet_recharge transfer).
  let t = Date.now();
  await db.execute(sql`drop table if exists bench_withdrawers`);
  const [{ n: covered }] = rowsOf<CountRow>(await db.execute(sql`
    select count(*)::int8 as n from (select 1 from users where deleted_at is null and balance_paise >= ${rounds * 100} limit ${perRound}) c`));
  if (Number(covered) < perRound) {
    await db.transaction((tx) => postSet(tx, { kind: 'wallet_recharge', actorId, description: 'Bench top-up' }, {
      lines: sql`
        select row_number() over (order by user_id) as ord, null::int8 as id, user_id, 'wallet_recharge'::text as kind,
               ${rounds * 100}::int8 as amount_paise, null::int as batch_id, 'Wallet recharge (bench top-up)'::text as description, null::int8 as reversal_of
          from (select user_id from users where deleted_at is null and role_id is null order by user_id limit ${perRound}) w`,
    }));
    log(`wallets topped up: ${perRound.toLocaleString('en-IN')} members × ₹${rounds}, ${seconds(t).toFixed(1)} s`);
  }
  await db.execute(sql`
    create unlogged table bench_withdrawers as
    select user_id, full_name from users
     where deleted_at is null and balance_paise >= ${rounds * 100}
     order by user_id limit ${perRound}`);
  // A fresh table has no statistics: without them the bank accounts' anti-join was planned as a
  // nested loop (minutes at 200,000 members).
  await db.execute(sql`analyze bench_withdrawers`);
  const [{ n: found }] = rowsOf<CountRow>(await db.execute(sql`select count(*)::int8 as n from bench_withdrawers`));
  if (Number(found) < perRound) throw new Error(`${perRound} members with ≥ ₹${rounds} are needed, ${found} found: raise --rounds`);
  // Those without a primary account are listed first, then given one: an INSERT … WHERE NOT EXISTS
  // on a bank_accounts analysed as empty was planned as a nested loop that scanned, for each member,
  // every row the statement had inserted so far (quadratic: minutes).
  await db.execute(sql`drop table if exists bench_unbanked`);
  await db.execute(sql`
    create unlogged table bench_unbanked as
    select w.user_id, w.full_name from bench_withdrawers w
     where not exists (select 1 from bank_accounts b where b.user_id = w.user_id and b.is_primary)`);
  await db.execute(sql`
    insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, is_primary)
    select w.user_id, coalesce(w.full_name, 'Member ' || w.user_id), lpad(w.user_id::text, 14, '0'), 'SBIN0001234', 'State Bank of India', true
      from bench_unbanked w`);
  await db.execute(sql`drop table bench_unbanked`);
  await db.execute(sql`analyze bank_accounts`);
  log(`${perRound.toLocaleString('en-IN')} withdrawing members picked, bank accounts given: ${seconds(t).toFixed(1)} s`);

  t = Date.now();
  let posted = 0;
  for (let r = 1; r <= rounds && posted < lines; r++) {
    const take = Math.min(perRound, lines - posted);
    const done = await db.transaction((tx) => postSet(tx, { kind: 'wallet_withdrawal', actorId, description: 'Bench withdrawals' }, {
      lines: sql`
        select row_number() over (order by user_id) as ord, null::int8 as id, user_id, 'wallet_withdrawal'::text as kind,
               -100::int8 as amount_paise, null::int as batch_id, 'Wallet withdrawal (bench)'::text as description, null::int8 as reversal_of
          from (select user_id from bench_withdrawers order by user_id limit ${take}) w`,
    }));
    posted += done.lines;
  }
  log(`${posted.toLocaleString('en-IN')} approved withdrawals posted (${rounds} set-based transfers): ${seconds(t).toFixed(1)} s`);

  t = Date.now();
  const gathered = await db.transaction((tx) => repo.gather(tx, actorId, 'generic'));
  log(`gathered into batch ${gathered.batchId}: ${gathered.lines.toLocaleString('en-IN')} lines, ${seconds(t).toFixed(1)} s`);
  if (gathered.lines < lines) throw new Error(`the batch holds ${gathered.lines} lines, ${lines} wanted`);

  t = Date.now();
  await db.transaction(async (tx) => {
    const { totalPaise } = await repo.queuedTotal(tx, gathered.batchId);
    const release = await post(tx, { kind: 'bank_release', bankBatchId: gathered.batchId, actorId }, [], [
      { account: 'withdrawals_payable', amountPaise: -totalPaise },
      { account: 'bank_in_transit', amountPaise: totalPaise },
    ]);
    await repo.markReleased(tx, gathered.batchId, actorId, release.transferId!);
  });
  log(`released (one transfer, lines in transit): ${seconds(t).toFixed(1)} s`);

  t = Date.now();
  const file = path.join(os.tmpdir(), `bank-response-${gathered.batchId}.csv`);
  const refs = rowsOf<LineRefRow>(await db.execute(sql`
    select id, reference from bank_transfer_lines where batch_id = ${gathered.batchId} order by id`));
  const out = ['Reference,Status,UTR,Reason'];
  refs.forEach((l, i) => out.push(i % rejectedEvery === rejectedEvery - 1
    ? `${l.reference},REJECTED,,Account closed`
    : `${l.reference},SUCCESS,HDFCN5${String(l.id).padStart(10, '0')},`));
  fs.writeFileSync(file, `${out.join('\r\n')}\r\n`);
  const bytes = fs.statSync(file).size;
  log(`response file ${file}: ${refs.length.toLocaleString('en-IN')} lines, ${(bytes / 1e6).toFixed(1)} MB, ${seconds(t).toFixed(1)} s`);

  const started = Date.now();
  const answers = parseResponseFile(fs.readFileSync(file, 'utf8'));
  const parsed = seconds(started);
  const applyStarted = Date.now();
  const summary = await db.transaction((tx) => applyAnswers(tx, actorId, answers, { holdReturns: ctxOf(actorId) }));
  const applied = seconds(applyStarted);
  const total = seconds(started);
  log(`IMPORT ${answers.length.toLocaleString('en-IN')} lines: read + parse ${parsed.toFixed(1)} s, apply ${applied.toFixed(1)} s, total ${total.toFixed(1)} s`
    + ` (target ≤ 60 s: ${total <= 60 ? 'met' : 'MISSED'})`);
  log(`settled ${summary.settled}, held ${summary.held} (request ${summary.returnsApprovalId}), duplicates ${summary.duplicates}, unknown ${summary.unknown}, pending ${summary.pending}, conflicts ${summary.conflicts}`);

  // The second operator approves the held returns: one bank_return transfer per line.
  if (summary.returnsApprovalId !== null) {
    const approveStarted = Date.now();
    const approved = await db.transaction((tx) => approveRequest(tx, ctxOf(checkerId), summary.returnsApprovalId!, 'bench'));
    if (approved.status !== 200) throw new Error(`the returns' approval answered ${approved.status}: ${approved.body.message}`);
    log(`APPROVE ${summary.held.toLocaleString('en-IN')} returns: ${seconds(approveStarted).toFixed(1)} s (${approved.body.message})`);
  }

  // The batch's transfers balance and its lines are all answered.
  const [check] = rowsOf<Record<string, string>>(await db.execute(sql`
    select (select status from bank_batches where id = ${gathered.batchId}) as status,
           (select count(*) from bank_transfer_lines where batch_id = ${gathered.batchId} and status = 'in_transit')::int8 as open_lines,
           (select coalesce(sum(b.amount_paise), 0) from book_legs b join transfers t on t.id = b.transfer_id
             where t.bank_batch_id = ${gathered.batchId})::int8
         + (select coalesce(sum(l.amount_paise), 0) from ledger_entries l join transfers t on t.id = l.transfer_id
             where t.bank_batch_id = ${gathered.batchId} and l.kind = 'bank_return')::int8 as imbalance`));
  log(`batch ${check.status}, lines still in transit ${check.open_lines}, the batch's transfers sum to ${check.imbalance} paise`);
  fs.rmSync(file, { force: true });
  await db.execute(sql`drop table if exists bench_withdrawers`);
} finally {
  await database.close();
}
