import { paiseToRupees } from '../../../contract/common.ts';
import type { Database } from '../../db/client.ts';

export const iso = (value: Date | string) => new Date(value).toISOString();
const rupees = (paise: number | string | bigint) => paiseToRupees(paise);

interface TransactionRow {
  id: number;
  user_id: number;
  user_name: string;
  full_name: string;
  amount_paise: number;
  created_at: Date | string;
  kind: 'wallet_recharge' | 'wallet_withdrawal';
}

const toTransaction = (r: Omit<TransactionRow, 'created_at'>, dateTime: string) => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  userName: r.user_name,
  fullName: r.full_name,
  amount: Math.abs(rupees(r.amount_paise)),
  dateTime,
  transactionType: r.kind,
});
const toListed = (r: TransactionRow) => toTransaction(r, iso(r.created_at));

const WALLET_COLUMNS = 'id, user_id, amount_paise, created_at, kind';

/**
 * Newest wallet transactions first. Each kind is read newest-first from ledger_wallet_keyset_idx
 * and only the first offset+limit of each are merged, so a page never sorts the whole ledger.
 * With `userId`, one member's wallet rows only, through ledger_user_created_idx.
 */
export async function listWalletTransactions(database: Database, page: number, limit: number, userId?: number) {
  const offset = (page - 1) * limit;
  if (userId !== undefined) {
    const [rows, [count]] = await Promise.all([database.query<TransactionRow>(`
      select l.id, l.user_id, coalesce(u.username, u.full_name) as user_name, u.full_name, l.amount_paise, l.created_at, l.kind
        from ledger_entries l join users u on u.user_id = l.user_id
       where l.user_id = $1 and l.kind in ('wallet_recharge', 'wallet_withdrawal')
       order by l.created_at desc, l.id desc
       limit $2 offset $3`, [userId, limit, offset]),
      database.query<{ n: string }>(
        `select count(*)::text as n from ledger_entries where user_id = $1 and kind in ('wallet_recharge', 'wallet_withdrawal')`,
        [userId]),
    ]);
    return { data: rows.map(toListed), total: Number(count.n) };
  }
  const [rows, [count]] = await Promise.all([database.query<TransactionRow>(`
    select l.id, l.user_id, coalesce(u.username, u.full_name) as user_name, u.full_name, l.amount_paise, l.created_at, l.kind
      from ((select ${WALLET_COLUMNS} from ledger_entries
              where kind = 'wallet_recharge' order by created_at desc, id desc limit $1)
            union all
            (select ${WALLET_COLUMNS} from ledger_entries
              where kind = 'wallet_withdrawal' order by created_at desc, id desc limit $1)) l
      join users u on u.user_id = l.user_id
     order by l.created_at desc, l.id desc
     limit $2 offset $3`, [offset + limit, limit, offset]),
    // The totals kept by trigger count the rows (16 of them): no count over the ledger.
    database.query<{ n: string }>(
      `select coalesce(sum(entries), 0)::text as n from ledger_totals where kind in ('wallet_recharge', 'wallet_withdrawal')`,
    ),
  ]);
  return { data: rows.map(toListed), total: Number(count.n) };
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
const kindBatch = (kind: string, after: boolean) => `
  (select ${WALLET_COLUMNS} from ledger_entries
    where kind = '${kind}'${after ? ' and (created_at, id) < ($2::text::timestamptz, $3::int8)' : ''}
    order by created_at desc, id desc limit $1)`;

// Issue 13 found each batch re-reading and sorting every wallet row below the cursor (794k rows
// took 327 s): one `kind in (…)` scan yields two kinds out of order, and `$2 is null or …` cannot
// bound an index scan. So: one range per kind, merged, and two fixed texts (first batch, next).
// The time comes as the wire's ISO text already: parsing a million timestamps into Dates and
// printing them again was a third of the export's CPU.
const batchSql = (after: boolean) => `
  select l.id, l.user_id, coalesce(u.username, u.full_name) as user_name, u.full_name, l.amount_paise,
         to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as date_time,
         l.created_at::text as cursor_at, l.kind
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
  const rows = await database.query<Omit<TransactionRow, 'created_at'> & { date_time: string; cursor_at: string }>(
    after ? NEXT_BATCH : FIRST_BATCH,
    after ? [size, after.createdAt, after.id] : [size],
  );
  const last = rows.at(-1);
  return {
    rows: rows.map((r) => toTransaction(r, r.date_time)),
    next: rows.length === size && last ? { createdAt: last.cursor_at, id: Number(last.id) } : null,
  };
}

export async function findMember(database: Database, userId: number) {
  const [row] = await database.query<{
    user_id: number; full_name: string; user_name: string; email: string; phone: string; status: boolean; balance_paise: number;
  }>(`select user_id, full_name, coalesce(username, full_name) as user_name, email, phone, status, balance_paise
        from users where user_id = $1 and deleted_at is null`, [userId]);
  return row ?? null;
}

/** One member's ledger, newest first (spec §3 Wallet history entry). */
export async function memberHistory(database: Database, userId: number, page: number, limit: number) {
  const rows = await database.query<{
    id: number; kind: string; amount_paise: number; description: string | null; created_at: Date | string;
  }>(`select id, kind, amount_paise, description, created_at from ledger_entries
       where user_id = $1 order by created_at desc, id desc limit $2 offset $3`, [userId, limit, (page - 1) * limit]);
  // Exact, and cheap: one member's rows through ledger_user_created_idx.
  const [count] = await database.query<{ n: string }>(
    'select count(*)::text as n from ledger_entries where user_id = $1', [userId]);
  return {
    history: rows.map((r) => ({
      id: Number(r.id),
      userId,
      amount: Math.abs(rupees(r.amount_paise)),
      type: Number(r.amount_paise) > 0 ? ('credit' as const) : ('debit' as const),
      transactionType: r.kind,
      description: r.description,
      date: iso(r.created_at),
      transactionId: Number(r.id),
    })),
    total: Number(count.n),
  };
}

export async function listBalances(database: Database, userName: string | undefined, page: number, limit: number) {
  const filter = userName ? `and lower(full_name) like '%' || lower($3) || '%'` : '';
  const params: unknown[] = [limit, (page - 1) * limit];
  if (userName) params.push(userName.replace(/[\\%_]/g, '\\$&'));
  const rows = await database.query<{ user_id: number; user_name: string; full_name: string; balance_paise: number }>(`
    select user_id, coalesce(username, full_name) as user_name, full_name, balance_paise
      from users where deleted_at is null ${filter}
     order by user_id limit $1 offset $2`, params);
  // Without a filter the live-member count is the trigger-kept counter, not a count(*).
  const [count] = userName
    ? await database.query<{ n: string }>(
        `select count(*)::text as n from users where deleted_at is null and lower(full_name) like '%' || lower($1) || '%'`,
        [params[2]])
    : await database.query<{ n: string }>(`select value::text as n from stat_counters where name = 'users_total'`);
  return {
    data: rows.map((r) => ({
      userId: Number(r.user_id), userName: r.user_name, fullName: r.full_name, balance: rupees(r.balance_paise),
    })),
    total: Number(count?.n ?? 0),
  };
}

/** Platform-wide wallet figures from the kept totals: the sum of all balances is the sum of the ledger. */
export async function walletSummary(database: Database) {
  const rows = await database.query<{ kind: string; total: string; entries: string }>(
    `select kind, sum(total_paise)::text as total, sum(entries)::text as entries from ledger_totals group by kind`);
  const [pending] = await database.query<{ n: string }>(
    `select count(*)::text as n from withdrawal_requests where status = 'pending'`);
  const of = (kind: string) => rows.find((r) => r.kind === kind);
  const totalBalance = rows.reduce((sum, r) => sum + Number(r.total), 0);
  return {
    totalBalance: rupees(totalBalance),
    recharges: { count: Number(of('wallet_recharge')?.entries ?? 0), amount: rupees(of('wallet_recharge')?.total ?? 0) },
    withdrawals: {
      count: Number(of('wallet_withdrawal')?.entries ?? 0),
      amount: Math.abs(rupees(of('wallet_withdrawal')?.total ?? 0)),
    },
    pendingWithdrawals: Number(pending.n),
  };
}

export async function memberSummary(database: Database, userId: number) {
  const member = await findMember(database, userId);
  if (!member) return null;
  const [s] = await database.query<{ credits: string; debits: string; n: string; last: Date | string | null }>(`
    select coalesce(sum(amount_paise) filter (where amount_paise > 0), 0)::text as credits,
           coalesce(-sum(amount_paise) filter (where amount_paise < 0), 0)::text as debits,
           count(*)::text as n, max(created_at) as last
      from ledger_entries where user_id = $1`, [userId]);
  return {
    userId,
    userName: member.user_name,
    balance: rupees(member.balance_paise),
    totalCredits: rupees(s.credits),
    totalDebits: rupees(s.debits),
    transactions: Number(s.n),
    lastTransactionAt: s.last ? iso(s.last) : null,
  };
}

export async function findTransaction(database: Database, id: number) {
  const [r] = await database.query<{
    id: number; user_id: number; user_name: string; amount_paise: number; kind: string; description: string | null;
    batch_id: number | null; actor_id: number | null; created_at: Date | string;
  }>(`select l.id, l.user_id, coalesce(u.username, u.full_name) as user_name, l.amount_paise, l.kind, l.description,
             l.batch_id, l.actor_id, l.created_at
        from ledger_entries l join users u on u.user_id = l.user_id where l.id = $1`, [id]);
  if (!r) return null;
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    userName: r.user_name,
    amount: Math.abs(rupees(r.amount_paise)),
    type: Number(r.amount_paise) > 0 ? ('credit' as const) : ('debit' as const),
    transactionType: r.kind,
    description: r.description,
    batchId: r.batch_id === null ? null : Number(r.batch_id),
    actorId: r.actor_id === null ? null : Number(r.actor_id),
    dateTime: iso(r.created_at),
  };
}
