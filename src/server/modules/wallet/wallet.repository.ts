import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import type { MemberBalance, WalletTransaction, WalletType } from '../../../contract/wallet.ts';
import type { Database, Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { users } from '../../db/schema/members.ts';
import { ledgerEntries, ledgerTotals } from '../../db/schema/money.ts';
import { statCounters } from '../../db/schema/system.ts';

type Ledger = typeof ledgerEntries.$inferSelect;
type User = typeof users.$inferSelect;

/** A wallet row as the raw list and export statements give it (the name is the username, else the full name). */
type TransactionRow = Pick<Ledger, 'id' | 'userId' | 'amountPaise'> & Pick<User, 'fullName'> & { userName: string; kind: WalletType };

/** The one mapper of a wallet transaction; `dateTime` is already ISO text. */
const toTransaction = (r: TransactionRow, dateTime: string): WalletTransaction => ({
  id: r.id,
  userId: r.userId,
  userName: r.userName,
  fullName: r.fullName,
  amount: Math.abs(paiseToRupees(r.amountPaise)),
  dateTime,
  transactionType: r.kind,
});

const WALLET_COLUMNS = 'id, user_id, amount_paise, created_at, kind';
const LISTED = `l.id, l.user_id as "userId", coalesce(u.username, u.full_name) as "userName", u.full_name as "fullName",
  l.amount_paise as "amountPaise", l.created_at as "createdAt", l.kind`;
type Listed = TransactionRow & { createdAt: Date | string };
type Counted = { n: number };

/**
 * Newest wallet transactions first. Each kind is read newest-first from ledger_wallet_keyset_idx
 * and only the first offset+limit of each are merged, so a page never sorts the whole ledger.
 * With `userId`, one member's wallet rows only, through ledger_user_created_idx.
 */
export async function listWalletTransactions(database: Database, page: number, limit: number, userId?: number) {
  const offset = (page - 1) * limit;
  if (userId !== undefined) {
    const [rows, [counted]] = await Promise.all([database.query<Listed>(`
      select ${LISTED}
        from ledger_entries l join users u on u.user_id = l.user_id
       where l.user_id = $1 and l.kind in ('wallet_recharge', 'wallet_withdrawal')
       order by l.created_at desc, l.id desc
       limit $2 offset $3`, [userId, limit, offset]),
      database.query<Counted>(
        `select count(*)::int8 as n from ledger_entries where user_id = $1 and kind in ('wallet_recharge', 'wallet_withdrawal')`,
        [userId]),
    ]);
    return { data: rows.map((r) => toTransaction(r, iso(r.createdAt))), total: counted.n };
  }
  const [rows, [counted]] = await Promise.all([database.query<Listed>(`
    select ${LISTED}
      from ((select ${WALLET_COLUMNS} from ledger_entries
              where kind = 'wallet_recharge' order by created_at desc, id desc limit $1)
            union all
            (select ${WALLET_COLUMNS} from ledger_entries
              where kind = 'wallet_withdrawal' order by created_at desc, id desc limit $1)) l
      join users u on u.user_id = l.user_id
     order by l.created_at desc, l.id desc
     limit $2 offset $3`, [offset + limit, limit, offset]),
    // The totals kept by trigger count the rows (16 of them): no count over the ledger.
    database.query<Counted>(
      `select coalesce(sum(entries), 0)::int8 as n from ledger_totals where kind in ('wallet_recharge', 'wallet_withdrawal')`,
    ),
  ]);
  return { data: rows.map((r) => toTransaction(r, iso(r.createdAt))), total: counted.n };
}

/**
 * Where a CSV batch ended: the last row's created_at exactly as PostgreSQL wrote it (microseconds;
 * a JavaScript Date keeps milliseconds and would skip rows that share the millisecond) and its id.
 */
export interface Keyset {
  createdAt: string;
  id: number;
}

/**
 * One kind's next rows after the cursor: one backward range of ledger_wallet_keyset_idx, read
 * from the index alone (drizzle/0013). The cursor's time goes in as text: a driver would round a
 * timestamptz parameter to milliseconds.
 */
const kindBatch = (kind: WalletType, after: boolean) => `
  (select ${WALLET_COLUMNS} from ledger_entries
    where kind = '${kind}'${after ? ' and (created_at, id) < ($2::text::timestamptz, $3::int8)' : ''}
    order by created_at desc, id desc limit $1)`;

// Issue 13 found each batch re-reading and sorting every wallet row below the cursor (794k rows
// took 327 s): one `kind in (…)` scan yields two kinds out of order, and `$2 is null or …` cannot
// bound an index scan. So: one range per kind, merged, and two fixed texts (first batch, next).
// The time comes as the wire's ISO text already: parsing a million timestamps into Dates and
// printing them again was a third of the export's CPU.
const batchSql = (after: boolean) => `
  select l.id, l.user_id as "userId", coalesce(u.username, u.full_name) as "userName", u.full_name as "fullName",
         l.amount_paise as "amountPaise",
         to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "dateTime",
         l.created_at::text as "cursorAt", l.kind
    from (${kindBatch('wallet_recharge', after)} union all ${kindBatch('wallet_withdrawal', after)}) l
    join users u on u.user_id = l.user_id
   order by l.created_at desc, l.id desc
   limit $1`;
const FIRST_BATCH = batchSql(false);
const NEXT_BATCH = batchSql(true);

/**
 * One keyset batch of wallet transactions for the CSV export, newest first: each kind is an index
 * range that starts at the cursor, and the two are merged, so every batch costs the same however
 * deep into the ledger it is.
 */
export async function walletTransactionsBatch(database: Database, after: Keyset | null, size: number) {
  const rows = await database.query<TransactionRow & { dateTime: string; cursorAt: string }>(
    after ? NEXT_BATCH : FIRST_BATCH,
    after ? [size, after.createdAt, after.id] : [size],
  );
  const last = rows.at(-1);
  return {
    rows: rows.map((r) => toTransaction(r, r.dateTime)),
    next: rows.length === size && last ? { createdAt: last.cursorAt, id: last.id } : null,
  };
}

const userName = sql<string>`coalesce(${users.username}, ${users.fullName})`;

/** A live member with their balance; null when there is none. */
export async function findMember(db: Db, userId: number) {
  const [row] = await db
    .select({
      userId: users.userId, fullName: users.fullName, userName, email: users.email, phone: users.phone,
      status: users.status, balancePaise: users.balancePaise,
    })
    .from(users)
    .where(and(eq(users.userId, userId), isNull(users.deletedAt)));
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
  const matches = name
    ? and(isNull(users.deletedAt), sql`lower(${users.fullName}) like '%' || lower(${name.replace(/[\\%_]/g, '\\$&')}) || '%'`)
    : isNull(users.deletedAt);
  const [rows, [counted]] = await Promise.all([
    db.select({ userId: users.userId, userName, fullName: users.fullName, balancePaise: users.balancePaise })
      .from(users).where(matches).orderBy(users.userId).limit(limit).offset((page - 1) * limit),
    // Without a filter the live-member count is the trigger-kept counter, not a count(*).
    name
      ? db.select({ n: count() }).from(users).where(matches)
      : db.select({ n: statCounters.value }).from(statCounters).where(eq(statCounters.name, 'users_total')),
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
