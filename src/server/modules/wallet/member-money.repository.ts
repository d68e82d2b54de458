import type { MemberLedgerFilters } from '../../../contract/member-money.ts';
import type { Database } from '../../db/client.ts';
import { isoText, type CountRow } from '../../db/rows.ts';
import type { users } from '../../db/schema/members.ts';
import type { ledgerEntries, moneyRequests } from '../../db/schema/money.ts';

/**
 * Issue 24: one member's money for the member page — what they earned per kind, their membership
 * and their ledger with the other side of each line. Raw SQL: the ledger is the 10,000,000-row
 * table, and each statement here is one member's index range:
 * - every line, newest first: ledger_user_created_idx (user_id, created_at), ties by id;
 * - one kind, newest first, and the sums per kind: ledger_user_kind_created_idx
 *   (user_id, kind, created_at, id) INCLUDE (amount_paise, reversal_of) (drizzle/0025);
 * - the approval behind a line: money_requests_user_approved_idx (user_id, id) where approved.
 */

type Ledger = typeof ledgerEntries.$inferSelect;
type User = typeof users.$inferSelect;
type Paise = Ledger['amountPaise'];
/** A line and the member's balance after it. */
type BalanceAfterRow = { id: Ledger['id']; after: Paise };
/** The approved request behind a line, with its maker's and checker's names. */
type LineApprovalRow = { id: (typeof moneyRequests.$inferSelect)['id']; entry: Ledger['id']; maker: User['fullName'] | null; checker: User['fullName'] | null };
/** The member's lines of a kind added up, originals and reversals apart. */
type KindSumRow = Pick<Ledger, 'kind'> & { reversal: boolean; total: Paise };
/** A live account's name, kind and money. */
type AccountRow = Pick<User, 'fullName' | 'canSignIn'> & { balance: User['balancePaise']; recovery: User['recoveryPaise'] };
/** A statement period's opening balance, credits, debits and line count. */
type StatementTotalsRow = { opening: Paise; credits: Paise; debits: Paise; lines: number };

/** Where a CSV batch ended: the last line's time as the database wrote it (text, to the microsecond) and id. */
export interface LedgerKeyset {
  at: string;
  id: number;
}

/** The statement text and its parameters, built together. */
function statement() {
  const params: unknown[] = [];
  return { params, p: (value: unknown) => `$${params.push(value)}` };
}

/** The member's filtered lines as one index range (the dates are business days in Asia/Kolkata). */
function ledgerWhere(userId: number, f: MemberLedgerFilters, p: (value: unknown) => string, before: LedgerKeyset | null) {
  const where = [`user_id = ${p(userId)}::int8`];
  if (f.kind) where.push(`kind = ${p(f.kind)}::text`);
  if (f.fromDate) where.push(`created_at >= (${p(f.fromDate)}::date)::timestamp at time zone 'Asia/Kolkata'`);
  if (f.toDate) where.push(`created_at < (${p(f.toDate)}::date + 1)::timestamp at time zone 'Asia/Kolkata'`);
  // The cursor's time goes in as text: a driver would round a timestamptz parameter to milliseconds.
  if (before) where.push(`(created_at, id) < (${p(before.at)}::text::timestamptz, ${p(before.id)}::int8)`);
  return where.join(' and ');
}

/** A ledger line with its run, batch and operator, as the statements below give it. */
export interface LedgerLineRow {
  id: number;
  kind: string;
  amountPaise: number;
  description: string | null;
  /** ISO 8601 in UTC, and the same instant in India time with its offset (for the CSV). */
  dateTime: string;
  istTime: string;
  /** created_at as text, for a keyset cursor. */
  at: string;
  runId: number | null;
  runKind: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  batchKind: string | null;
  batchDate: string | null;
  actorId: number | null;
  actorName: string | null;
  reversalOf: number | null;
}

const LINE_COLUMNS = `
  l.id, l.kind, l.amount_paise::int8 as "amountPaise", l.description,
  ${isoText('l.created_at')} as "dateTime",
  to_char(l.created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD"T"HH24:MI:SS"+05:30"') as "istTime",
  l.created_at::text as at,
  l.run_id as "runId", r.kind as "runKind", r.period_start::text as "periodStart", r.period_end::text as "periodEnd",
  b.kind as "batchKind", b.run_date::text as "batchDate",
  l.actor_id as "actorId", a.full_name as "actorName", l.reversal_of as "reversalOf"`;

const LINE_JOINS = `
  left join income_runs r on r.run_id = l.run_id
  left join income_batches b on b.batch_id = l.batch_id
  left join users a on a.user_id = l.actor_id`;

const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function normalise(rows: Record<string, unknown>[]): LedgerLineRow[] {
  // The row itself, its numbers converted in place (a fresh object of the driver's; a spread copy costs a slow path per row).
  return rows.map((r) => Object.assign(r as unknown as LedgerLineRow, {
    id: Number(r.id),
    amountPaise: Number(r.amountPaise),
    runId: numberOrNull(r.runId),
    actorId: numberOrNull(r.actorId),
    reversalOf: numberOrNull(r.reversalOf),
  }));
}

/**
 * One page of the member's lines, newest first. Offset paging stops at MAX_PAGED_ROWS (the
 * routes' depth rule), so a page reads at most 10,000 index entries of this one member.
 */
export async function ledgerPage(database: Database, userId: number, f: MemberLedgerFilters, page: number, limit: number) {
  const { params, p } = statement();
  const where = ledgerWhere(userId, f, p, null);
  const rows = await database.query<Record<string, unknown>>(`
    select ${LINE_COLUMNS}
      from (select * from ledger_entries where ${where} order by created_at desc, id desc
             limit ${p(limit)} offset ${p((page - 1) * limit)}) l
      ${LINE_JOINS}
     order by l.created_at desc, l.id desc`, params);
  return normalise(rows);
}

/** How many lines match: one member's index range, counted from the index. */
export async function ledgerCount(database: Database, userId: number, f: MemberLedgerFilters) {
  const { params, p } = statement();
  const [row] = await database.query<CountRow>(
    `select count(*)::int8 as n from ledger_entries where ${ledgerWhere(userId, f, p, null)}`, params);
  return Number(row.n);
}

/** One keyset batch of the member's lines for the CSV, newest first, starting below the cursor. */
export async function ledgerBatch(database: Database, userId: number, f: MemberLedgerFilters, before: LedgerKeyset | null, size: number) {
  const { params, p } = statement();
  const where = ledgerWhere(userId, f, p, before);
  const rows = await database.query<Record<string, unknown>>(`
    select ${LINE_COLUMNS}
      from (select * from ledger_entries where ${where} order by created_at desc, id desc limit ${p(size)}) l
      ${LINE_JOINS}
     order by l.created_at desc, l.id desc`, params);
  return normalise(rows);
}

/**
 * The balance right after each of `ids`: the balance just after `upper` (exclusive; null = now,
 * read in the same statement as the lines so the two agree) minus every line of the member that
 * came after the line (all kinds, whatever the filter). It reads the member's lines from `upper`
 * down to `lower` (the oldest line wanted, inclusive) once, in the ledger's order.
 */
export async function balancesAfter(
  database: Database, userId: number, start: number | null, upper: LedgerKeyset | null, lower: LedgerKeyset, ids: number[],
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const { params, p } = statement();
  const u = p(userId);
  const bounds = [`l.user_id = ${u}::int8`, `(l.created_at, l.id) >= (${p(lower.at)}::text::timestamptz, ${p(lower.id)}::int8)`];
  if (upper) bounds.push(`(l.created_at, l.id) < (${p(upper.at)}::text::timestamptz, ${p(upper.id)}::int8)`);
  const startSql = start === null ? `(select balance_paise from users where user_id = ${u}::int8)` : `${p(start)}::int8`;
  const rows = await database.query<BalanceAfterRow>(`
    with w as (
      select l.id, coalesce(sum(l.amount_paise) over (order by l.created_at desc, l.id desc
                              rows between unbounded preceding and 1 preceding), 0) as newer
        from ledger_entries l where ${bounds.join(' and ')}
    )
    select w.id, (${startSql} - w.newer)::int8 as after from w where w.id = any(${p(ids)}::int8[])`, params);
  return new Map(rows.map((r) => [Number(r.id), Number(r.after)]));
}

export interface LineApproval {
  id: number;
  entryId: number;
  makerName: string | null;
  checkerName: string | null;
}

/**
 * The approved request whose movement wrote each of `ids`: its answer names the line
 * (`transactionId`), or, for a movement whose answer names none (an activation paid outside), the
 * line was written in the approval's own transaction, so its created_at is the request's
 * decided_at (both are that transaction's now()). The member's approved requests are few
 * (money_requests_user_approved_idx).
 */
export async function approvalsOf(database: Database, userId: number, ids: number[]): Promise<Map<number, LineApproval>> {
  if (ids.length === 0) return new Map();
  const rows = await database.query<LineApprovalRow>(`
    select m.id, l.id as entry, mk.full_name as maker, ck.full_name as checker
      from ledger_entries l
      join lateral (
        select r.id, r.maker_id, r.checker_id from money_requests r
         where r.user_id = l.user_id and r.status = 'approved'
           and (r.result->>'transactionId' = l.id::text or r.decided_at = l.created_at)
         order by (r.result->>'transactionId' = l.id::text) desc nulls last, r.id
         limit 1) m on true
      left join users mk on mk.user_id = m.maker_id
      left join users ck on ck.user_id = m.checker_id
     where l.user_id = $1::int8 and l.id = any($2::int8[])`,
  [userId, ids]);
  return new Map(rows.map((r) => [Number(r.entry), { id: Number(r.id), entryId: Number(r.entry), makerName: r.maker, checkerName: r.checker }]));
}

/** The member's lines added up per kind, originals and reversals apart (from the index alone). */
export async function sumsByKind(database: Database, userId: number) {
  const rows = await database.query<KindSumRow>(`
    select kind, reversal_of is not null as reversal, sum(amount_paise)::int8 as total
      from ledger_entries where user_id = $1::int8
     group by kind, reversal_of is not null`, [userId]);
  return rows.map((r) => ({ kind: r.kind, reversal: r.reversal, totalPaise: Number(r.total) }));
}

/** A live account by id: a member (no sign-in) or a staff account; null when there is none. */
export async function accountOf(database: Database, userId: number) {
  const [row] = await database.query<AccountRow>(`
    select full_name as "fullName", can_sign_in as "canSignIn", balance_paise::int8 as balance, recovery_paise::int8 as recovery
      from users where user_id = $1::int8 and deleted_at is null`, [userId]);
  return row ? { fullName: row.fullName, canSignIn: row.canSignIn, balancePaise: Number(row.balance), recoveryPaise: Number(row.recovery) } : null;
}

/** The member's membership with its plan's name; null when they have none. */
export async function membershipOf(database: Database, userId: number) {
  const [row] = await database.query<Record<string, unknown>>(`
    select p.name as "planName", m.status, m.amount_paise::int8 as amount, m.created_at as "activatedAt",
           m.starts_on::text as "startsOn", m.duration_days as "durationDays", m.days_earned as "daysEarned",
           m.earned_paise::int8 as earned, m.cap_paise::int8 as cap
      from memberships m left join membership_plans p on p.plan_id = m.plan_id
     where m.user_id = $1::int8`, [userId]);
  return row ?? null;
}

// ---- Issue 25: the member statement (opening, the period's lines with their counter-account, closing) ----

/**
 * The member's balance before the period and the period's credits, debits and lines: one member's
 * range of ledger_user_kind_created_idx (user_id, kind, created_at, id) INCLUDE (amount_paise),
 * or of ledger_user_created_idx (user_id, created_at).
 */
export async function statementTotals(database: Database, userId: number, from: string, to: string) {
  const [row] = await database.query<StatementTotalsRow>(`
    select coalesce(sum(amount_paise) filter (where created_at < ($2::date)::timestamp at time zone 'Asia/Kolkata'), 0)::int8 as opening,
           coalesce(sum(amount_paise) filter (where created_at >= ($2::date)::timestamp at time zone 'Asia/Kolkata' and amount_paise > 0), 0)::int8 as credits,
           coalesce(-sum(amount_paise) filter (where created_at >= ($2::date)::timestamp at time zone 'Asia/Kolkata' and amount_paise < 0), 0)::int8 as debits,
           count(*) filter (where created_at >= ($2::date)::timestamp at time zone 'Asia/Kolkata')::int8 as lines
      from ledger_entries
     where user_id = $1::int8 and created_at < ($3::date + 1)::timestamp at time zone 'Asia/Kolkata'`, [userId, from, to]);
  return { openingPaise: Number(row.opening), creditsPaise: Number(row.credits), debitsPaise: Number(row.debits), lines: Number(row.lines) };
}

export interface StatementLineRow {
  id: number;
  transferId: number;
  kind: string;
  description: string | null;
  amountPaise: number;
  /** The period's lines added up to this one. */
  runningPaise: number;
  counterAccount: string;
  dateTime: string;
  istTime: string;
  at: string;
}

/**
 * The period's lines, oldest first: `skip` passed over (still in the running sum), then `take`;
 * or the `take` after a cursor (a CSV batch, its running sum from zero). Each with the company
 * account on its other side in words: book_account(kind)'s name, or the company bank for a
 * withdrawal paid outside (before the books).
 */
export async function statementLines(
  database: Database, userId: number, from: string, to: string, opts: { skip: number; take: number; after?: LedgerKeyset | null },
): Promise<StatementLineRow[]> {
  const { params, p } = statement();
  const where = [
    `e.user_id = ${p(userId)}::int8`,
    `e.created_at >= (${p(from)}::date)::timestamp at time zone 'Asia/Kolkata'`,
    `e.created_at < (${p(to)}::date + 1)::timestamp at time zone 'Asia/Kolkata'`,
  ];
  if (opts.after) where.push(`(e.created_at, e.id) > (${p(opts.after.at)}::text::timestamptz, ${p(opts.after.id)}::int8)`);
  const rows = await database.query<Record<string, unknown>>(`
    with w as (
      select g.*, sum(g.amount_paise) over (order by g.created_at, g.id rows between unbounded preceding and current row) as running,
             row_number() over (order by g.created_at, g.id) as n
        from (select e.id, e.transfer_id, e.kind, e.description, e.amount_paise, e.created_at from ledger_entries e
               where ${where.join(' and ')} order by e.created_at, e.id limit ${p(opts.skip + opts.take)}) g
    )
    select e.id, coalesce(e.transfer_id, e.id) as "transferId", e.kind, e.description, e.amount_paise::int8 as "amountPaise",
           e.running::int8 as running,
           (select a.name from book_accounts a where a.code = case
              when e.kind = 'wallet_withdrawal' and not exists (
                select 1 from book_legs b where b.transfer_id = coalesce(e.transfer_id, e.id) and b.account = 'withdrawals_payable')
              then 'company_bank' else book_account(e.kind) end) as "counterAccount",
           ${isoText('e.created_at')} as "dateTime",
           to_char(e.created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD"T"HH24:MI:SS"+05:30"') as "istTime",
           e.created_at::text as at
      from w e where e.n > ${p(opts.skip)}
     order by e.created_at, e.id`, params);
  return rows.map((r) => ({
    id: Number(r.id), transferId: Number(r.transferId), kind: String(r.kind), description: (r.description as string | null) ?? null,
    amountPaise: Number(r.amountPaise), runningPaise: Number(r.running), counterAccount: String(r.counterAccount ?? 'Unknown account'),
    dateTime: String(r.dateTime), istTime: String(r.istTime), at: String(r.at),
  }));
}
