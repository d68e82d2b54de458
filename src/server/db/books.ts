import { sql, type SQL } from 'drizzle-orm';
import { paiseToRupees } from '../../contract/common.ts';
import { AppError } from '../lib/errors.ts';
import { rowsOf, type Db } from './client.ts';
import { iso } from './rows.ts';
import type { BookAccount } from './schema/books.ts';
import type { users } from './schema/members.ts';
import type { LedgerKind } from './schema/money.ts';

/**
 * The one way money moves (issue 25, docs/books.md): a transfer between accounts, its legs
 * committed together in one statement of the caller's transaction. A member's line moves their
 * wallet (users.balance_paise, never below zero) and is written to ledger_entries naming the
 * transfer; each line's counter-leg is the company account its kind is posted against
 * (book_account(kind), drizzle/0029), one leg per account for the whole transfer; further company
 * legs (a shortfall owed, a bank transfer settled) are given explicitly and must balance among
 * themselves. Nothing is written unless every member's wallet could move: a debit a wallet can't
 * cover, or a member that doesn't exist, writes nothing and is refused. Every transfer names what
 * caused it. Set-based: a run's chunk posts 40,000 members in this one statement.
 */

/**
 * The advisory lock (one key) a bank gather holds exclusively and each reversal range of a
 * bank-mode run holds shared: a bank_payout line is either gathered into a batch or reversed,
 * never both (a reversal leaves a batched line alone; the gather skips a reversed one).
 */
export const BANK_GATHER_LOCK = 802_511;

/** What caused a transfer: at least one of these (a movement nobody started names its process, `system`). */
export interface TransferCause {
  runId?: number | null;
  /** The income batch (royalty, reward, daily payout) the lines belong to. */
  batchId?: number | null;
  approvalId?: number | null;
  bankBatchId?: number | null;
  actorId?: number | null;
  /** Demo data, tests and migrations, which no operator, run or approval started. */
  system?: string;
}

export interface TransferHeader extends TransferCause {
  /** What moved: a ledger kind, or a company movement ('bank_release', 'bank_settle', 'shortfall', …). */
  kind: string;
  /** The transfer this one corrects (a reversal, a bank return). */
  corrects?: number | null;
  /**
   * Adds the lines to this existing transfer (written earlier in the same transaction) instead of
   * a new one: a bank-mode payout's bank_payout lines join their chunk's transfer, in a statement
   * of their own after its credits (so the recovery trigger saw the net credit first). The lines'
   * counter-legs must balance them (no explicit legs).
   */
  into?: number | null;
  description?: string | null;
}

export interface MemberLine {
  userId: number;
  kind: LedgerKind;
  /** Signed: credits positive, debits negative; never zero. */
  amountPaise: number;
  description?: string | null;
  batchId?: number | null;
  reversalOf?: number | null;
}

export interface CompanyLeg {
  account: BookAccount;
  /** Credit-positive, as member lines are: a debit to an asset or expense account is negative. */
  amountPaise: number;
}

/**
 * The set-based form. `lines` selects the member lines with the columns
 * (ord, id, user_id, kind, amount_paise, batch_id, description, reversal_of) — `id` may be null
 * (the ledger's identity gives one) or an id the caller drew from the ledger's sequence; `ord`
 * orders the inserted lines. `with` defines the CTEs it reads (no leading WITH, no trailing comma);
 * `legs` selects further company legs (account, amount_paise); `also` adds the caller's own
 * data-modifying CTEs (", name as (…)"), which may read posting_lines, posting_ok, posting_moved
 * (user_id, balance_paise, owes) and posting_entries (id, user_id, kind); `select` adds
 * columns to the answer.
 */
export interface PostingSet {
  /**
   * Each line is a transfer of its own (its kind and description the line's), dated by the
   * lines' extra column `created_at` (demo data's history); `legs` is then not allowed.
   */
  perLine?: boolean;
  /** `with` is recursive (WITH RECURSIVE). */
  recursive?: boolean;
  with?: SQL;
  lines: SQL;
  legs?: SQL;
  also?: SQL;
  select?: SQL;
  /** A FROM for the answer's `select` (one row). */
  from?: SQL;
  /**
   * The lines may move the wallet of a member deleted since (a soft delete keeps it): a run's
   * reversal takes back what the run paid them like anyone else's. Every other posting refuses a
   * deleted member (404).
   */
  deletedToo?: boolean;
}

export interface Posted {
  /** Null when there was nothing to post (no line, no leg). */
  transferId: number | null;
  lines: number;
  members: number;
  /** What the member lines add up to. */
  totalPaise: number;
  firstEntryId: number | null;
  createdAt: string | null;
  /** The caller's `select` columns. */
  row: Record<string, unknown>;
}

const rupees = (paise: number) => paiseToRupees(paise).toFixed(2);

function requireCause(header: TransferHeader) {
  const { runId, batchId, approvalId, bankBatchId, actorId, system } = header;
  if (runId == null && batchId == null && approvalId == null && bankBatchId == null && actorId == null && !system) {
    throw new Error(`A transfer (${header.kind}) names what caused it: a run, a batch, an approval, a bank batch or an operator`);
  }
}

export async function postSet(tx: Db, header: TransferHeader, set: PostingSet): Promise<Posted> {
  requireCause(header);
  if (header.into != null && (set.legs || set.perLine)) throw new Error('Lines added to an existing transfer carry no explicit legs and are not per line');
  const seq = (table: string) => sql`nextval((select pg_get_serial_sequence(${table}, 'id')::regclass))`;
  const live = set.deletedToo ? sql`true` : sql`u.deleted_at is null`;
  const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`
    with ${set.recursive ? sql`recursive ` : sql``}${set.with ? sql`${set.with},` : sql``}
    posting_tid as materialized (select ${header.into != null ? sql`${header.into}::int8` : seq('transfers')} as id),
    posting_lines as materialized (
      select l.*, ${set.perLine ? seq('transfers') : sql`(select id from posting_tid)`} as transfer_id,
             ${set.perLine ? sql`coalesce(l.created_at, now())` : sql`now()`} as posting_at
        from (${set.lines}) l
    ),
    posting_extra as materialized (${set.legs ?? sql`select null::text as account, 0::int8 as amount_paise where false`}),
    posting_users as materialized (
      select user_id, sum(amount_paise)::int8 as amount from posting_lines group by user_id
    ),
    -- All or nothing: a debit a wallet can't cover now moves no one (only debits are looked at, so
    -- a run's chunk of credits costs nothing more). The UPDATE re-checks each row on its newest
    -- version too; a member missing, or a concurrent change that makes a row fail there, is
    -- refused below and the caller's transaction rolls the others back.
    posting_short as materialized (
      select exists (select 1 from posting_users p
                      where p.amount < 0
                        and not exists (select 1 from users u where u.user_id = p.user_id and ${live}
                                                                 and u.balance_paise + p.amount >= 0)) as short
    ),
    posting_moved as (
      update users u set balance_paise = u.balance_paise + p.amount
        from posting_users p
       where u.user_id = p.user_id and ${live} and u.balance_paise + p.amount >= 0
         and not (select short from posting_short)
      returning u.user_id, u.balance_paise, u.recovery_paise > 0 as owes
    ),
    posting_ok as materialized (
      select (select count(*) from posting_moved) = (select count(*) from posting_users)
             and (select coalesce(sum(amount_paise), 0) from posting_extra) = 0 as ok
    ),
    posting_transfer as (
      insert into transfers (id, kind, run_id, batch_id, approval_id, bank_batch_id, actor_id, corrects, description, created_at)
      select t.transfer_id, ${set.perLine ? sql`t.kind` : sql`${header.kind}::text`}, ${header.runId ?? null}::int8, ${header.batchId ?? null}::int,
             ${header.approvalId ?? null}::int8, ${header.bankBatchId ?? null}::int8, ${header.actorId ?? null}::int8, ${header.corrects ?? null}::int8,
             ${set.perLine ? sql`t.description` : sql`${header.description ?? header.system ?? null}::text`}, t.posting_at
        from (select transfer_id, min(kind) as kind, min(description) as description, min(posting_at) as posting_at
                from posting_lines group by transfer_id
              union all
              select id, null, null, now() from posting_tid
               where exists (select 1 from posting_extra) and not exists (select 1 from posting_lines)) t
       where (select ok from posting_ok) and ${header.into == null}::boolean
       order by t.transfer_id
      returning id, created_at
    ),
    posting_entries as (
      insert into ledger_entries (id, user_id, kind, amount_paise, batch_id, description, actor_id, run_id, reversal_of, transfer_id, created_at)
      select coalesce(l.id, ${seq('ledger_entries')}), l.user_id, l.kind, l.amount_paise, l.batch_id, l.description,
             ${header.actorId ?? null}::int8, ${header.runId ?? null}::int8, l.reversal_of, l.transfer_id, l.posting_at
        from posting_lines l
       where (select ok from posting_ok)
       order by l.ord
      returning id, user_id, kind
    ),
    posting_legs as (
      insert into book_legs (transfer_id, account, amount_paise, created_at)
      select x.transfer_id, x.account, sum(x.amount)::int8, min(x.posting_at)
        from (select transfer_id, book_account(kind) as account, -amount_paise as amount, posting_at from posting_lines
              union all select (select id from posting_tid), account, amount_paise, now() from posting_extra) x
       where (select ok from posting_ok)
       group by x.transfer_id, x.account having sum(x.amount) <> 0
       order by x.transfer_id, x.account
      returning amount_paise
    )
    ${set.also ?? sql``}
    select ${header.into != null
      ? sql`(select min(transfer_id) from posting_lines where (select ok from posting_ok))::int8 as "postingTransfer", (select min(posting_at) from posting_lines) as "postingAt",`
      : sql`(select min(id) from posting_transfer)::int8 as "postingTransfer", (select min(created_at) from posting_transfer) as "postingAt",`}
           (select ok from posting_ok) as "postingOk",
           (select coalesce(sum(amount_paise), 0) from posting_extra)::int8 as "postingExtra",
           (select count(*) from posting_entries)::int8 as "postingLines",
           (select min(id) from posting_entries)::int8 as "postingFirst",
           (select count(*) from posting_users)::int8 as "postingMembers",
           (select coalesce(sum(amount_paise), 0) from posting_lines)::int8 as "postingTotal",
           (select json_build_object('userId', p.user_id, 'amount', p.amount, 'balance', u.balance_paise)
              from posting_users p left join users u on u.user_id = p.user_id and ${live}
             where p.user_id not in (select user_id from posting_moved) order by p.user_id limit 1) as "postingRefused",
           ((select coalesce(sum(amount_paise), 0) from posting_lines) + (select coalesce(sum(amount_paise), 0) from posting_legs))::int8
             as "postingImbalance"
           ${set.select ? sql`, ${set.select}` : sql``}
      ${set.from ? sql`from ${set.from}` : sql``}`));
  if (Number(row.postingExtra) !== 0) {
    throw new Error(`Transfer ${header.kind} does not balance: its company legs sum to ${row.postingExtra} paise`);
  }
  if (!row.postingOk) refuse(typeof row.postingRefused === 'string' ? JSON.parse(row.postingRefused) : (row.postingRefused as never));
  if (row.postingTransfer !== null && Number(row.postingImbalance) !== 0) {
    throw new Error(`Transfer ${header.kind} does not balance: its legs sum to ${row.postingImbalance} paise`);
  }
  const { postingTransfer, postingAt, postingOk: _ok, postingExtra: _e, postingLines, postingFirst, postingMembers, postingTotal, postingImbalance: _i, postingRefused: _r, ...rest } = row;
  return {
    transferId: postingTransfer === null ? null : Number(postingTransfer),
    lines: Number(postingLines),
    members: Number(postingMembers),
    totalPaise: Number(postingTotal),
    firstEntryId: postingFirst === null ? null : Number(postingFirst),
    createdAt: postingAt === null ? null : iso(postingAt as Date | string),
    row: rest,
  };
}

/** Why a posting moved nothing: the first member who doesn't exist or whose wallet can't cover their lines. */
function refuse(why: { userId: number; balance: number | null; amount: number } | null): never {
  if (!why || why.balance === null) throw new AppError(404, `Member ${why?.userId ?? ''} not found`.trim());
  throw new AppError(
    400,
    `Insufficient wallet balance: the member has ${rupees(Number(why.balance))} and ${rupees(-Number(why.amount))} was requested`,
  );
}

/** A transfer given as values: the member lines (in order) and any further company legs. */
export async function post(tx: Db, header: TransferHeader, lines: MemberLine[], legs: CompanyLeg[] = [], extra?: { also?: SQL; select?: SQL }) {
  for (const l of [...lines, ...legs]) {
    if (!Number.isSafeInteger(l.amountPaise) || l.amountPaise === 0) throw new AppError(400, 'Amount must be a non-zero whole number of paise');
  }
  const values = lines.length
    ? sql`select * from (values ${sql.join(
        lines.map((l, i) => sql`(${i}::int, null::int8, ${l.userId}::int8, ${l.kind}::text, ${l.amountPaise}::int8, ${l.batchId ?? null}::int,
                                 ${l.description ?? null}::text, ${l.reversalOf ?? null}::int8)`),
        sql`, `,
      )}) v(ord, id, user_id, kind, amount_paise, batch_id, description, reversal_of)`
    : sql`select 0::int as ord, null::int8 as id, 0::int8 as user_id, ''::text as kind, 0::int8 as amount_paise, null::int as batch_id,
                 null::text as description, null::int8 as reversal_of where false`;
  const legValues = legs.length
    ? sql`select * from (values ${sql.join(legs.map((l) => sql`(${l.account}::text, ${l.amountPaise}::int8)`), sql`, `)}) e(account, amount_paise)`
    : undefined;
  return postSet(tx, header, { lines: values, legs: legValues, ...extra });
}

// ---- One member's lines: the wallet screens, Pay Now, tests ----

export interface LedgerPosting extends TransferCause {
  userId: number;
  kind: LedgerKind;
  /** Signed: credits positive, debits negative; never zero. */
  amountPaise: number;
  description?: string | null;
  batchId?: number | null;
}

export interface PostedEntry {
  entryId: number;
  transferId: number;
  userId: number;
  amountPaise: number;
  balancePaise: number;
  createdAt: string;
}

/** A member's balance (users.balance_paise). */
type BalanceRow = { balance: (typeof users.$inferSelect)['balancePaise'] };

/** The member's balance after the posting statement and its triggers (a credit to a member who owes a recovery is settled by drizzle/functions/recovery.sql). */
async function balanceOf(tx: Db, userId: number): Promise<number> {
  const [row] = rowsOf<BalanceRow>(await tx.execute(sql`select balance_paise as balance from users where user_id = ${userId}`));
  return Number(row.balance);
}

/**
 * One member's lines as one transfer (its kind the first line's): Pay Now of an engine Failure
 * row is +gross, −TDS, −admin charge, one statement, so a recovery the member owes is settled from
 * the net. Answers the first line's id and the balance after everything (the recovery included).
 */
export async function postEntries(tx: Db, cause: TransferCause & { userId: number; description?: string | null }, lines: Omit<LedgerPosting, 'userId'>[]) {
  if (lines.length === 0) throw new AppError(400, 'Amount must be a non-zero whole number of paise');
  const header: TransferHeader = { kind: lines[0].kind, ...cause, system: cause.system ?? 'posted directly', description: cause.description ?? lines[0].description };
  const posted = await post(tx, header, lines.map((l) => ({ ...l, userId: cause.userId })), [], {
    select: sql`(select balance_paise from posting_moved limit 1)::int8 as "balancePaise", (select bool_or(owes) from posting_moved) as owes`,
  });
  const total = lines.reduce((sum, l) => sum + l.amountPaise, 0);
  return {
    entryId: posted.firstEntryId!,
    transferId: posted.transferId!,
    userId: cause.userId,
    amountPaise: total,
    balancePaise: posted.row.owes && total > 0 ? await balanceOf(tx, cause.userId) : Number(posted.row.balancePaise),
    createdAt: posted.createdAt!,
  } satisfies PostedEntry;
}

/** One line of one member as its own transfer (a recharge, a withdrawal, an operator's credit). */
export async function postEntry(tx: Db, posting: LedgerPosting): Promise<PostedEntry> {
  const { userId, kind, amountPaise, description, batchId, ...cause } = posting;
  return postEntries(tx, { ...cause, batchId, userId, description }, [{ kind, amountPaise, description, batchId }]);
}

// ---- History (demo data) ----

/**
 * The transfer id of a line of history: demo data writes a network's past straight into
 * ledger_entries (dated over months, balances set from it afterwards), each line naming a
 * transfer of its own drawn with this; bookHistory then writes those transfers and their
 * counter-legs, by kind, as drizzle/0029 did for the ledger before the books (a withdrawal of the
 * past was paid outside: the company bank, never "to send").
 */
export const HISTORY_TRANSFER_ID = `nextval(pg_get_serial_sequence('transfers', 'id'))`;

export async function bookHistory(tx: Db): Promise<void> {
  const since = sql`(select coalesce(max(id), 0) from transfers)`;
  await tx.execute(sql`
    insert into book_legs (transfer_id, account, amount_paise, created_at)
    select l.transfer_id, case when l.kind = 'wallet_withdrawal' then 'company_bank' else book_account(l.kind) end, -l.amount_paise, l.created_at
      from ledger_entries l where l.transfer_id > ${since} order by l.transfer_id`);
  await tx.execute(sql`
    insert into transfers (id, kind, actor_id, description, created_at)
    select l.transfer_id, l.kind, l.actor_id, 'Demo data: ' || coalesce(l.description, l.kind), l.created_at
      from ledger_entries l where l.transfer_id > ${since} order by l.transfer_id`);
}
