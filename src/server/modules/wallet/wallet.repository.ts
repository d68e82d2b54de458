import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { paiseToRupees, sortParts } from '../../../contract/common.ts';
import type { MemberBalance, WalletSort, WalletTransaction, WalletType } from '../../../contract/wallet.ts';
import type { LedgerKindName } from '../../../contract/ledger-kinds.ts';
import type { Database, Db } from '../../db/client.ts';
import { iso, isoText } from '../../db/rows.ts';
import { users } from '../../db/schema/members.ts';
import { ledgerEntries, ledgerTotals } from '../../db/schema/money.ts';
import { counterTotal } from '../../db/counters.ts';

type Ledger = typeof ledgerEntries.$inferSelect;
type User = typeof users.$inferSelect;

/** A wallet row as the raw list and export statements give it (the name is the username, else the full name). */
type TransactionRow = Pick<Ledger, 'id' | 'userId' | 'amountPaise'> & Pick<User, 'fullName'> & { userName: string; kind: LedgerKindName };

/** An export batch's row: the time as ISO text, and the value its keyset goes on from. */
type BatchRow = TransactionRow & { dateTime: string; cursorAt: string };

/** The one mapper of a wallet transaction; `dateTime` is already ISO text. */
const toTransaction = (r: TransactionRow, dateTime: string): WalletTransaction => ({
  id: r.id,
  userId: r.userId,
  userName: r.userName,
  fullName: r.fullName,
  amount: Math.abs(paiseToRupees(r.amountPaise)),
  dateTime,
  transactionType: r.kind,
  type: Number(r.amountPaise) > 0 ? 'credit' : 'debit',
});

const WALLET_COLUMNS = 'id, user_id, amount_paise, created_at, kind';
const WALLET_KINDS: readonly WalletType[] = ['wallet_recharge', 'wallet_withdrawal'];
const LISTED = `l.id, l.user_id as "userId", coalesce(u.username, u.full_name) as "userName", u.full_name as "fullName",
  l.amount_paise as "amountPaise", ${isoText('l.created_at')} as "dateTime", l.kind`;
/** A listed row: the time as ISO text already (isoText). */
type Listed = TransactionRow & { dateTime: string };
/** A page's row, carrying the filtered total. */
type ListedPage = Listed & { total: number };
type Counted = { n: number };

/** The wallet list's filters as the service hands them over: dates yyyy-mm-dd, amounts in paise. */
export interface WalletListFilters {
  userId?: number;
  /** Any kind of the ledger (issue 24); none = the spec's list, recharges and withdrawals. */
  type?: LedgerKindName;
  fromDate?: string;
  toDate?: string;
  minAmount?: number;
  maxAmount?: number;
  sort: WalletSort;
}

/** Where an export batch ended: the last row's sort value as text (exactly as the database wrote it) and its id. */
export interface Keyset {
  value: string;
  id: number;
}

/**
 * One kind's rows, filtered and in the list's order, as one index range:
 * - by date: ledger_wallet_keyset_idx (kind, created_at, id) INCLUDE (user_id, amount_paise);
 * - by amount: ledger_recharge_amount_idx (amount_paise, id) and ledger_withdrawal_amount_idx
 *   (amount_paise, id desc). The list shows amounts without their sign and withdrawals are
 *   negative, so a withdrawal's "larger" is a lower amount_paise (hence id desc in its index);
 * - one member: ledger_user_created_idx (user_id, created_at).
 * The dates are business days in Asia/Kolkata; the amount bounds compare the amount as shown.
 */
function kindRange(kind: LedgerKindName, f: WalletListFilters, p: (value: unknown) => string, after: Keyset | null) {
  if (!isWalletKind(kind)) return otherKindRange(kind, f, p, after);
  const { key, desc } = sortParts(f.sort);
  const dir = desc ? 'desc' : 'asc';
  const flip = desc ? 'asc' : 'desc';
  const credit = kind === 'wallet_recharge';
  const where = [`kind = '${kind}'`];
  if (f.userId !== undefined) where.push(`user_id = ${p(f.userId)}`);
  if (f.fromDate) where.push(`created_at >= (${p(f.fromDate)}::date)::timestamp at time zone 'Asia/Kolkata'`);
  if (f.toDate) where.push(`created_at < (${p(f.toDate)}::date + 1)::timestamp at time zone 'Asia/Kolkata'`);
  if (f.minAmount !== undefined) where.push(credit ? `amount_paise >= ${p(f.minAmount)}::int8` : `amount_paise <= -${p(f.minAmount)}::int8`);
  if (f.maxAmount !== undefined) where.push(credit ? `amount_paise <= ${p(f.maxAmount)}::int8` : `amount_paise >= -${p(f.maxAmount)}::int8`);
  let order: string;
  if (key === 'createdAt') {
    order = `created_at ${dir}, id ${dir}`;
    // The cursor's time goes in as text: a driver would round a timestamptz parameter to milliseconds.
    if (after) where.push(`(created_at, id) ${desc ? '<' : '>'} (${p(after.value)}::text::timestamptz, ${p(after.id)}::int8)`);
  } else {
    order = `amount_paise ${credit ? dir : flip}, id ${dir}`;
    if (after) {
      const value = p(Number(after.value));
      const id = p(after.id);
      const past = desc ? '<' : '>';
      where.push(credit
        ? `(amount_paise, id) ${past} (${value}::int8, ${id}::int8)`
        : `(amount_paise ${desc ? '>' : '<'} -${value}::int8 or (amount_paise = -${value}::int8 and id ${past} ${id}::int8))`);
    }
  }
  return { where: where.join(' and '), order };
}

const isWalletKind = (kind: LedgerKindName): kind is WalletType => (WALLET_KINDS as readonly string[]).includes(kind);

/**
 * Issue 24: the User Wallet list filtered to another kind of the ledger (level income, a daily
 * payout, a reversal's line, TDS…). Such a kind goes both ways (a reversal has the opposite sign),
 * so the amount as shown is abs(amount_paise):
 * - by date: ledger_kind_created_idx (kind, created_at), ties by id;
 * - by amount, and the amount bounds: ledger_kind_abs_amount_idx (kind, abs(amount_paise), id)
 *   (drizzle/0025; the wallet kinds keep their own indexes and are left out of it);
 * - one member: ledger_user_kind_created_idx (user_id, kind, created_at, id).
 * The kind is one of the contract's names, written into the text as a literal so that the planner
 * matches the partial index's predicate.
 */
function otherKindRange(kind: LedgerKindName, f: WalletListFilters, p: (value: unknown) => string, after: Keyset | null) {
  const { key, desc } = sortParts(f.sort);
  const dir = desc ? 'desc' : 'asc';
  const past = desc ? '<' : '>';
  const where = [`kind = '${kind}'`];
  if (f.userId !== undefined) where.push(`user_id = ${p(f.userId)}`);
  if (f.fromDate) where.push(`created_at >= (${p(f.fromDate)}::date)::timestamp at time zone 'Asia/Kolkata'`);
  if (f.toDate) where.push(`created_at < (${p(f.toDate)}::date + 1)::timestamp at time zone 'Asia/Kolkata'`);
  if (f.minAmount !== undefined) where.push(`abs(amount_paise) >= ${p(f.minAmount)}::int8`);
  if (f.maxAmount !== undefined) where.push(`abs(amount_paise) <= ${p(f.maxAmount)}::int8`);
  let order: string;
  if (key === 'createdAt') {
    order = `created_at ${dir}, id ${dir}`;
    if (after) where.push(`(created_at, id) ${past} (${p(after.value)}::text::timestamptz, ${p(after.id)}::int8)`);
  } else {
    order = `abs(amount_paise) ${dir}, id ${dir}`;
    if (after) where.push(`(abs(amount_paise), id) ${past} (${p(Number(after.value))}::int8, ${p(after.id)}::int8)`);
  }
  return { where: where.join(' and '), order };
}

/** One kind's first `limit` rows (after the cursor) in the list's order. */
const kindRows = (range: { where: string; order: string }, limit: string) =>
  `(select ${WALLET_COLUMNS} from ledger_entries where ${range.where} order by ${range.order} limit ${limit})`;

/** The merged order of the kinds' ranges (the amount as shown, without its sign). */
function mergedOrder(sort: WalletSort) {
  const { key, desc } = sortParts(sort);
  const dir = desc ? 'desc' : 'asc';
  return key === 'createdAt' ? `l.created_at ${dir}, l.id ${dir}` : `abs(l.amount_paise) ${dir}, l.id ${dir}`;
}

/** The statement text and its parameters, built together. */
function statement() {
  const params: unknown[] = [];
  return { params, p: (value: unknown) => `$${params.push(value)}` };
}

/**
 * The filtered count's statement. Without a member or an amount range it comes from the totals kept
 * by trigger (all time: ledger_totals; a date range: ledger_daily, the same Asia/Kolkata days);
 * otherwise it counts the index ranges the page reads.
 */
function countWallet(f: WalletListFilters, kinds: readonly LedgerKindName[], p: (value: unknown) => string) {
  const kindList = kinds.map((k) => `'${k}'`).join(', ');
  if (f.userId === undefined && f.minAmount === undefined && f.maxAmount === undefined) {
    const days = [f.fromDate && `day >= ${p(f.fromDate)}::date`, f.toDate && `day <= ${p(f.toDate)}::date`].filter(Boolean);
    const table = f.fromDate || f.toDate ? 'ledger_daily' : 'ledger_totals';
    return `select coalesce(sum(entries), 0)::int8 as n from ${table} where kind in (${kindList})${days.map((d) => ` and ${d}`).join('')}`;
  }
  const ranges = kinds.map((k) => `(select 1 from ledger_entries where ${kindRange(k, f, p, null).where})`);
  return `select count(*)::int8 as n from (${ranges.join(' union all ')}) l`;
}

/**
 * One page of wallet transactions, filtered and sorted, and the filtered total, in one statement
 * (issue 23): each row carries the total. Each kind is read from its index in the list's order
 * and only the first offset+limit of each are merged, so a page never sorts the whole ledger. An
 * empty first page means a total of 0; only a page past the end asks for the total again.
 */
export async function listWalletTransactions(database: Database, f: WalletListFilters, page: number, limit: number) {
  const offset = (page - 1) * limit;
  const kinds = f.type ? [f.type] : WALLET_KINDS;
  const { params, p } = statement();
  const take = p(offset + limit);
  const ranges = kinds.map((k) => kindRows(kindRange(k, f, p, null), take));
  const text = `
    select ${LISTED}, (${countWallet(f, kinds, p)}) as total
      from (${ranges.join(' union all ')}) l
      join users u on u.user_id = l.user_id
     order by ${mergedOrder(f.sort)}
     limit ${p(limit)} offset ${p(offset)}`;
  const rows = await database.query<ListedPage>(text, params);
  let total = rows.length > 0 ? Number(rows[0].total) : 0;
  if (rows.length === 0 && offset > 0) {
    const counted = statement();
    [{ n: total }] = await database.query<Counted>(countWallet(f, kinds, counted.p), counted.params);
  }
  return { data: rows.map((r) => toTransaction(r, r.dateTime)), total: Number(total) };
}

/**
 * One keyset batch of the filtered wallet transactions for the CSV export, in the list's order:
 * each kind is an index range that starts at the cursor, and the two are merged, so every batch
 * costs the same however deep into the ledger it is. The time comes as the wire's ISO text
 * already (sendCsv writes it in India time with its offset): parsing a million timestamps into Dates and printing them again was a third of the
 * export's CPU. (Issue 13: a `kind in (…)` scan yields two kinds out of order, and `$2 is null or …`
 * cannot bound an index scan, hence one range per kind and texts without optional parts.)
 */
export async function walletTransactionsBatch(database: Database, f: WalletListFilters, after: Keyset | null, size: number) {
  const kinds = f.type ? [f.type] : WALLET_KINDS;
  const { params, p } = statement();
  const take = p(size);
  const ranges = kinds.map((k) => kindRows(kindRange(k, f, p, after), take));
  const byDate = sortParts(f.sort).key === 'createdAt';
  const rows = await database.query<BatchRow>(`
    select l.id, l.user_id as "userId", coalesce(u.username, u.full_name) as "userName", u.full_name as "fullName",
           l.amount_paise as "amountPaise",
           ${isoText('l.created_at')} as "dateTime",
           ${byDate ? 'l.created_at::text' : 'abs(l.amount_paise)::text'} as "cursorAt", l.kind
      from (${ranges.join(' union all ')}) l
      join users u on u.user_id = l.user_id
     order by ${mergedOrder(f.sort)}
     limit ${take}`, params);
  const last = rows.at(-1);
  return {
    rows: rows.map((r) => toTransaction(r, r.dateTime)),
    next: rows.length === size && last ? { value: last.cursorAt, id: last.id } : null,
  };
}

const userName = sql<string>`coalesce(${users.username}, ${users.fullName})`;

/**
 * A live member with their balance; null when there is none. An account that signs in (staff,
 * the administrator included) is not a member and has no wallet (issue 22): every money path
 * that names a member looks them up here, so money never moves to or from a staff account.
 */
export async function findMember(db: Db, userId: number) {
  const [row] = await db
    .select({
      userId: users.userId, fullName: users.fullName, userName, email: users.email, phone: users.phone,
      status: users.status, balancePaise: users.balancePaise,
    })
    .from(users)
    .where(and(eq(users.userId, userId), isNull(users.deletedAt), eq(users.canSignIn, false)));
  return row ?? null;
}
export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>;

const entryType = (amountPaise: number) => (amountPaise > 0 ? ('credit' as const) : ('debit' as const));

/** One member's ledger, newest first (spec §3 Wallet history entry), through ledger_user_created_idx. */
export async function memberHistory(db: Db, userId: number, page: number, limit: number) {
  const [rows, [counted]] = await Promise.all([
    db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId))
      .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id)).limit(limit).offset((page - 1) * limit),
    // Exact, and cheap: one member's rows.
    db.select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.userId, userId)),
  ]);
  return {
    history: rows.map((r) => ({
      id: r.id,
      userId,
      amount: Math.abs(paiseToRupees(r.amountPaise)),
      type: entryType(r.amountPaise),
      transactionType: r.kind,
      description: r.description,
      date: iso(r.createdAt),
      transactionId: r.id,
    })),
    total: counted.n,
  };
}

export async function listBalances(db: Db, name: string | undefined, page: number, limit: number) {
  // Members only: staff hold no wallet (issue 24), and the unfiltered total is the members-only counter.
  const member = and(isNull(users.deletedAt), eq(users.canSignIn, false));
  const matches = name
    ? and(member, sql`lower(${users.fullName}) like '%' || lower(${name.replace(/[\\%_]/g, '\\$&')}) || '%'`)
    : member;
  const [rows, [counted]] = await Promise.all([
    db.select({ userId: users.userId, userName, fullName: users.fullName, balancePaise: users.balancePaise })
      .from(users).where(matches).orderBy(users.userId).limit(limit).offset((page - 1) * limit),
    // Without a filter the live-member count is the trigger-kept counter, not a count(*).
    name
      ? db.select({ n: count() }).from(users).where(matches)
      : counterTotal(db, 'users_total'),
  ]);
  const data: MemberBalance[] = rows.map((r) => ({
    userId: r.userId, userName: r.userName, fullName: r.fullName, balance: paiseToRupees(r.balancePaise),
  }));
  return { data, total: counted?.n ?? 0 };
}

/** The kept all-time totals per ledger kind (their 8 shards added up). */
export async function ledgerTotalsByKind(db: Db) {
  return db
    .select({ kind: ledgerTotals.kind, totalPaise: sql<number>`sum(${ledgerTotals.totalPaise})::int8`, entries: sql<number>`sum(${ledgerTotals.entries})::int8` })
    .from(ledgerTotals)
    .groupBy(ledgerTotals.kind);
}

/** One member's credits, debits, row count and newest row. */
export async function memberLedgerSummary(db: Db, userId: number) {
  const [row] = await db
    .select({
      credits: sql<number>`coalesce(sum(${ledgerEntries.amountPaise}) filter (where ${ledgerEntries.amountPaise} > 0), 0)::int8`,
      debits: sql<number>`coalesce(-sum(${ledgerEntries.amountPaise}) filter (where ${ledgerEntries.amountPaise} < 0), 0)::int8`,
      n: count(),
      last: sql<Date | string | null>`max(${ledgerEntries.createdAt})`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId));
  return row;
}

export async function findTransaction(db: Db, id: number) {
  const [r] = await db
    .select({ entry: ledgerEntries, userName })
    .from(ledgerEntries)
    .innerJoin(users, eq(users.userId, ledgerEntries.userId))
    .where(eq(ledgerEntries.id, id));
  if (!r) return null;
  return {
    id: r.entry.id,
    userId: r.entry.userId,
    userName: r.userName,
    amount: Math.abs(paiseToRupees(r.entry.amountPaise)),
    type: entryType(r.entry.amountPaise),
    transactionType: r.entry.kind,
    description: r.entry.description,
    batchId: r.entry.batchId,
    actorId: r.entry.actorId,
    dateTime: iso(r.entry.createdAt),
  };
}
