import type { Database } from '../../db/client.ts';
import { isoText, pageWith, type DayRow } from '../../db/rows.ts';
import type { bookAccounts, bookLegs } from '../../db/schema/books.ts';
import type { ledgerEntries } from '../../db/schema/money.ts';

/**
 * The books read (issue 25, docs/books.md). Raw SQL, designed for 10,000,000 transfers:
 * - balances at a date and movements over a period come from the daily rollups only —
 *   book_daily (company accounts) and ledger_daily (the member wallets' lines), a few rows per
 *   account and day, the shards added up — never from the legs;
 * - an account's legs over a period are an index range: book_legs_account_created_idx
 *   (account, created_at, id) INCLUDE (amount_paise, transfer_id); for the member wallets, one
 *   range of ledger_kind_created_idx (kind, created_at) per kind, merged;
 * - a transfer's member lines: ledger_transfer_idx (BRIN on transfer_id), or the line whose id is
 *   the transfer's for a line from before the books (primary key); its company legs:
 *   book_legs_transfer_idx; what corrects it: transfers_corrects_idx.
 * Amounts are credit-positive paise throughout.
 */

/** The statement text and its parameters, built together. */
function statement() {
  const params: unknown[] = [];
  return { params, p: (value: unknown) => `$${params.push(value)}` };
}

/** The first instant of an India day (yyyy-mm-dd placeholder), and of the day after. */
const dayStart = (day: string) => `(${day}::date)::timestamp at time zone 'Asia/Kolkata'`;
const dayEnd = (day: string) => `(${day}::date + 1)::timestamp at time zone 'Asia/Kolkata'`;

const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const nOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Today in India (yyyy-mm-dd), as the database sees it. */
export async function indiaToday(database: Database): Promise<string> {
  const [row] = await database.query<DayRow>(`select ((now() at time zone 'Asia/Kolkata')::date)::text as day`);
  return row.day;
}

export interface AccountRow {
  code: string;
  name: string;
  type: string;
  description: string;
}

/**
 * Every account of the chart with its balance at the end of `day`: the company accounts from
 * book_daily, the member wallets from ledger_daily (every kind), both summed over their shards.
 */
export async function trialBalance(database: Database, day: string) {
  const rows = await database.query<BalanceRow>(`
    with company as (
      select account, sum(total_paise)::int8 as total from book_daily where day <= $1::date group by account
    ), wallets as (
      select coalesce(sum(total_paise), 0)::int8 as total from ledger_daily where day <= $1::date
    )
    select a.code, a.name, a.type, a.description,
           (case when a.code = 'member_wallets' then (select total from wallets) else coalesce(c.total, 0) end)::int8 as balance
      from book_accounts a left join company c on c.account = a.code
     order by a.position, a.code`, [day]);
  return rows.map((r) => ({ code: r.code, name: r.name, type: r.type, description: r.description, balancePaise: n(r.balance) }));
}

const isWallets = (code: string) => code === 'member_wallets';

/** An account and its figures over a period, read from the daily rollups. */
export interface PeriodTotals {
  account: AccountRow;
  openingPaise: number;
  closingPaise: number;
  legs: number;
  /** The period's debits and credits apart (positive paise). */
  debitsPaise: number;
  creditsPaise: number;
}

/** An account of the chart with its balance at the end of a day. */
type BalanceRow = AccountRow & { balance: string | number };
/** A transfer's legs on one account, added up. */
type AccountLegsRow = Pick<typeof bookLegs.$inferSelect, 'account'> & Pick<typeof bookAccounts.$inferSelect, 'name'> & {
  amount: (typeof bookLegs.$inferSelect)['amountPaise'];
};
/** A transfer's member lines: how many and their sum. */
type LineTotalsRow = { lines: number; total: (typeof ledgerEntries.$inferSelect)['amountPaise'] };

type TotalsRow = AccountRow & { opening: string | number; closing: string | number; legs: string | number; debits: string | number; credits: string | number };

/**
 * The statement giving an account (none: no row) with its balance before `from` and after `to`,
 * and the period's legs, debits and credits — from the daily rollups (book_daily, or ledger_daily
 * for the member wallets: a few rows per day), never the legs. `p` numbers its parameters.
 */
function totalsText(code: string, from: string, to: string, p: (value: unknown) => string) {
  const c = p(code);
  const f = p(from);
  const t = p(to);
  const daily = isWallets(code)
    ? `select day, total_paise, entries as legs, debit_paise, credit_paise from ledger_daily`
    : `select day, total_paise, legs, debit_paise, credit_paise from book_daily where account = ${c}`;
  return `
    select a.code, a.name, a.type, a.description, s.opening, s.closing, s.legs, s.debits, s.credits
      from book_accounts a, (
        select coalesce(sum(total_paise) filter (where day < ${f}::date), 0)::int8 as opening,
               coalesce(sum(total_paise) filter (where day <= ${t}::date), 0)::int8 as closing,
               coalesce(sum(legs) filter (where day between ${f}::date and ${t}::date), 0)::int8 as legs,
               coalesce(sum(debit_paise) filter (where day between ${f}::date and ${t}::date), 0)::int8 as debits,
               coalesce(sum(credit_paise) filter (where day between ${f}::date and ${t}::date), 0)::int8 as credits
          from (${daily}) d) s
     where a.code = ${c}`;
}

function totalsOf(r: TotalsRow | undefined): PeriodTotals | null {
  if (!r) return null;
  return {
    account: { code: r.code, name: r.name, type: r.type, description: r.description },
    openingPaise: n(r.opening), closingPaise: n(r.closing), legs: n(r.legs), debitsPaise: n(r.debits), creditsPaise: n(r.credits),
  };
}

/** An account (null: not in the chart) and its figures over a period. */
export async function periodTotals(database: Database, code: string, from: string, to: string): Promise<PeriodTotals | null> {
  const { params, p } = statement();
  const [row] = await database.query<TotalsRow>(totalsText(code, from, to, p), params);
  return totalsOf(row);
}

/** Where a statement's CSV batch ended: the last leg's time (text, to the microsecond), its id and the balance after it. */
export interface LegKeyset {
  at: string;
  id: number;
}

export interface CauseRow {
  transferId: number;
  transferKind: string;
  transferDescription: string | null;
  runId: number | null;
  runKind: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  batchId: number | null;
  approvalId: number | null;
  bankBatchId: number | null;
  actorId: number | null;
  actorName: string | null;
}

export interface LegRow extends CauseRow {
  id: number;
  amountPaise: number;
  /** Running sum within the period up to this leg (credit-positive paise). */
  runningPaise: number;
  dateTime: string;
  istTime: string;
  at: string;
  userId: number | null;
  userName: string | null;
  lineKind: string | null;
  lineDescription: string | null;
}

const CAUSE_COLUMNS = `
  t.id as "transferId", t.kind as "transferKind", t.description as "transferDescription",
  t.run_id as "runId", r.kind as "runKind", r.period_start::text as "periodStart", r.period_end::text as "periodEnd",
  t.batch_id as "batchId", t.approval_id as "approvalId", t.bank_batch_id as "bankBatchId",
  t.actor_id as "actorId", a.full_name as "actorName"`;
const CAUSE_JOINS = `
  left join income_runs r on r.run_id = t.run_id
  left join users a on a.user_id = t.actor_id`;
const TIME_COLUMNS = (col: string) => `
  ${isoText(col)} as "dateTime",
  to_char(${col} at time zone 'Asia/Kolkata', 'YYYY-MM-DD"T"HH24:MI:SS"+05:30"') as "istTime",
  ${col}::text as at`;

export function causeOf(r: Record<string, unknown>): CauseRow {
  return {
    transferId: Number(r.transferId),
    transferKind: String(r.transferKind),
    transferDescription: (r.transferDescription as string | null) ?? null,
    runId: nOrNull(r.runId),
    runKind: (r.runKind as string | null) ?? null,
    periodStart: (r.periodStart as string | null) ?? null,
    periodEnd: (r.periodEnd as string | null) ?? null,
    batchId: nOrNull(r.batchId),
    approvalId: nOrNull(r.approvalId),
    bankBatchId: nOrNull(r.bankBatchId),
    actorId: nOrNull(r.actorId),
    actorName: (r.actorName as string | null) ?? null,
  };
}

// Row mappers add to the cause with Object.assign, not an object spread: V8 copies a spread
// source through a slow path (about 10 µs a row for the cause's 12 properties, measured), and a
// statement page maps 25 rows per request.
function legOf(r: Record<string, unknown>): LegRow {
  return Object.assign(causeOf(r), {
    id: Number(r.id),
    amountPaise: Number(r.amountPaise),
    runningPaise: Number(r.running),
    dateTime: String(r.dateTime),
    istTime: String(r.istTime),
    at: String(r.at),
    userId: nOrNull(r.userId),
    userName: (r.userName as string | null) ?? null,
    lineKind: (r.lineKind as string | null) ?? null,
    lineDescription: (r.lineDescription as string | null) ?? null,
  });
}

/** The statement of an account's legs over the period (see `legs`); `column` is added to its select list. */
function legsText(
  code: string, from: string, to: string, opts: { skip: number; take: number; after?: LegKeyset | null },
  p: (value: unknown) => string, column?: string,
): string {
  const f = p(from);
  const t = p(to);
  const upto = p(opts.skip + opts.take);
  const after = opts.after ? `and (x.created_at, x.id) > (${p(opts.after.at)}::text::timestamptz, ${p(opts.after.id)}::int8)` : '';
  const skip = p(opts.skip);
  let range: string;
  let detail: string;
  if (isWallets(code)) {
    // One index range per kind (ledger_kind_created_idx), merged: each reads at most skip + take lines.
    range = `
      select l.id, l.created_at, l.amount_paise, coalesce(l.transfer_id, l.id) as transfer_id, l.user_id, l.kind as line_kind, l.description as line_description
        from (select distinct kind from ledger_totals) k
        cross join lateral (
          select x.id, x.created_at, x.amount_paise, x.transfer_id, x.user_id, x.kind, x.description from ledger_entries x
           where x.kind = k.kind and x.created_at >= ${dayStart(f)} and x.created_at < ${dayEnd(t)} ${after}
           order by x.created_at, x.id limit ${upto}) l
       order by l.created_at, l.id limit ${upto}`;
    detail = `, l.user_id as "userId", u.full_name as "userName", l.line_kind as "lineKind", l.line_description as "lineDescription"`;
  } else {
    range = `
      select x.id, x.created_at, x.amount_paise, x.transfer_id, null::int8 as user_id, null::text as line_kind, null::text as line_description
        from book_legs x
       where x.account = ${p(code)} and x.created_at >= ${dayStart(f)} and x.created_at < ${dayEnd(t)} ${after}
       order by x.created_at, x.id limit ${upto}`;
    detail = `, null::int8 as "userId", null::text as "userName", null::text as "lineKind", null::text as "lineDescription"`;
  }
  return `
    with w as (
      select g.*, sum(g.amount_paise) over (order by g.created_at, g.id rows between unbounded preceding and current row) as running,
             row_number() over (order by g.created_at, g.id) as n
        from (${range}) g
    )
    select l.id, l.amount_paise::int8 as "amountPaise", l.running::int8 as running, ${TIME_COLUMNS('l.created_at')}, ${CAUSE_COLUMNS} ${detail}
           ${column ? `, ${column}` : ''}
      from (select * from w where n > ${skip}) l
      join transfers t on t.id = l.transfer_id
      ${CAUSE_JOINS}
      ${isWallets(code) ? 'left join users u on u.user_id = l.user_id' : ''}
     order by l.created_at, l.id`;
}

/**
 * The legs of an account over the period, oldest first: `skip` legs passed over (their amounts
 * still counted in the running sum), then `take`; or, with `after`, the `take` legs after that
 * cursor (a CSV batch; the running sum then starts at zero — the caller carries the balance).
 * Offset paging stops at MAX_PAGED_ROWS (the routes' depth rule), so a page reads at most
 * 10,000 index entries.
 */
export async function legs(
  database: Database, code: string, from: string, to: string, opts: { skip: number; take: number; after?: LegKeyset | null },
): Promise<LegRow[]> {
  const { params, p } = statement();
  const rows = await database.query<Record<string, unknown>>(legsText(code, from, to, opts, p), params);
  return rows.map(legOf);
}

/**
 * A statement's page and its figures in one statement (pageWith, as other lists do): on PGlite,
 * which runs one statement at a time, the account, its totals and its page no longer queue one
 * behind the other (a second, small statement only when the page is empty). Null: no such account.
 */
export async function statementPage(
  database: Database, code: string, from: string, to: string, skip: number, take: number,
): Promise<{ totals: PeriodTotals; rows: LegRow[] } | null> {
  const { params, p } = statement();
  const text = legsText(code, from, to, { skip, take }, p, '__EXTRA__');
  const page = await pageWith<Record<string, unknown>, TotalsRow[]>(
    database,
    { text: (column) => text.replace('__EXTRA__', () => column), params },
    (more) => totalsText(code, from, to, (value) => `$${more.push(value)}`),
  );
  const totals = totalsOf(page.extra[0]);
  return totals ? { totals, rows: page.rows.map(legOf) } : null;
}

// ---- A transfer ----

export async function transferHeader(database: Database, id: number) {
  const [row] = await database.query<Record<string, unknown>>(`
    select ${CAUSE_COLUMNS}, t.corrects, ${TIME_COLUMNS('t.created_at')},
           coalesce((select array_agg(c.id order by c.id) from transfers c where c.corrects = t.id), '{}') as "correctedBy"
      from transfers t ${CAUSE_JOINS}
     where t.id = $1::int8`, [id]);
  if (!row) return null;
  const correctedBy = Array.isArray(row.correctedBy)
    ? row.correctedBy.map(Number)
    : String(row.correctedBy).replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
  return Object.assign(causeOf(row), { corrects: nOrNull(row.corrects), dateTime: String(row.dateTime), correctedBy });
}

export async function transferLegs(database: Database, id: number) {
  const rows = await database.query<AccountLegsRow>(`
    select b.account, a.name, sum(b.amount_paise)::int8 as amount
      from book_legs b join book_accounts a on a.code = b.account
     where b.transfer_id = $1::int8
     group by b.account, a.name, a.position order by a.position`, [id]);
  return rows.map((r) => ({ account: r.account, name: r.name, amountPaise: n(r.amount) }));
}

/** The member lines of a transfer: those naming it, or the one line that is it (before the books). */
const LINES_OF = `(e.transfer_id = $1::int8 or (e.id = $1::int8 and e.transfer_id is null))`;

/**
 * The company account a member line is posted against, in words: by its kind (book_account),
 * except a withdrawal paid outside (before the books, or demo history), whose counter-leg is the
 * company bank.
 */
export const COUNTER_ACCOUNT = `
  (select a.name from book_accounts a where a.code = case
     when e.kind = 'wallet_withdrawal' and not exists (
       select 1 from book_legs b where b.transfer_id = coalesce(e.transfer_id, e.id) and b.account = 'withdrawals_payable')
     then 'company_bank' else book_account(e.kind) end)`;

export async function transferLineTotals(database: Database, id: number) {
  const [row] = await database.query<LineTotalsRow>(
    `select count(*)::int8 as lines, coalesce(sum(e.amount_paise), 0)::int8 as total from ledger_entries e where ${LINES_OF}`, [id]);
  return { lines: n(row.lines), totalPaise: n(row.total) };
}

export async function transferLines(database: Database, id: number, offset: number, limit: number) {
  const rows = await database.query<Record<string, unknown>>(`
    select e.id, e.user_id as "userId", u.full_name as "userName", e.kind, e.description, e.amount_paise::int8 as "amountPaise",
           ${COUNTER_ACCOUNT} as "counterAccount"
      from (select * from ledger_entries e where ${LINES_OF} order by e.id limit $2 offset $3) e
      left join users u on u.user_id = e.user_id
     order by e.id`, [id, limit, offset]);
  return rows.map((r) => ({
    id: Number(r.id), userId: Number(r.userId), userName: (r.userName as string | null) ?? null, kind: String(r.kind),
    description: (r.description as string | null) ?? null, amountPaise: Number(r.amountPaise), counterAccount: String(r.counterAccount ?? ''),
  }));
}
