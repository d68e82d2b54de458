import { paiseToRupees, sortParts, type SortValue } from '../../../contract/common.ts';
import { REWARD_TYPES, royaltyDisplayLevel, type INCOME_SORTS } from '../../../contract/reports.ts';
import type { Database } from '../../db/client.ts';
import { isoText, pageBounds, pageWith } from '../../db/rows.ts';
import type { ranks } from '../../db/schema/catalogue.ts';
import type { incomeBatches, incomeMonthTotals, ledgerEntries } from '../../db/schema/money.ts';
import { containsPattern, IST_RANGE } from './revenue.repository.ts';

/** The reward type that reads level income (not a batch kind: activations credit it). */
export const LEVEL_INCOME = 'levelIncome';

/** Royalty or one reward type over a range of batch run dates, optionally one user name. */
export interface IncomeFilters {
  kind: 'royalty' | 'reward';
  rewardType?: string;
  fromDate: string;
  toDate: string;
  userName?: string;
}

/** Users by income, largest first (`-amount`, the default) or smallest first (`amount`). */
export type IncomeSort = SortValue<(typeof INCOME_SORTS)[number]>;

export type BatchRow = Pick<typeof incomeBatches.$inferSelect, 'batchId' | 'rewardType' | 'runDate'> & { kind: IncomeFilters['kind']; runId: number | null };

type Ledger = typeof ledgerEntries.$inferSelect;

/** A receiver's credit as the statements give it: their name, rank, and the time as ISO text (isoText). */
export type CreditRow = Pick<Ledger, 'id' | 'batchId' | 'userId' | 'amountPaise'> & {
  userName: string;
  rankName: (typeof ranks.$inferSelect)['name'] | null;
  createdAt: string;
};
/** A credit's own columns (alias l). */
type OwnCreditRow = Omit<CreditRow, 'userName' | 'rankName'>;
const OWN_CREDIT_COLUMNS = `l.id, l.batch_id as "batchId", l.user_id as "userId", l.amount_paise as "amountPaise", ${isoText('l.created_at')} as "createdAt"`;
/** A credit with its receiver (aliases l, u for users and r for ranks). */
export const CREDIT_COLUMNS = `${OWN_CREDIT_COLUMNS}, coalesce(u.username, u.full_name) as "userName", r.name as "rankName"`;

export const NAME_MATCH = (n: number) => `(lower(u.full_name) like $${n} or lower(coalesce(u.username, '')) like $${n})`;

/**
 * Which batches a report reads. The Reward Income screen's types are reward batches of that
 * reward_type (the daily payout runs write kind 'reward', reward type 'dailyPayout'), except
 * `royaltyIncome`: the royalty runs' credits, which are the royalty batches (kind 'royalty').
 */
export function batchSource(f: IncomeFilters): IncomeFilters {
  return f.kind === 'reward' && f.rewardType === 'royaltyIncome' ? { ...f, kind: 'royalty', rewardType: undefined } : f;
}

/** The batches of the range: a handful per month, read through income_batches_kind_date_idx. */
export async function batchesInRange(database: Database, filters: IncomeFilters): Promise<BatchRow[]> {
  const f = batchSource(filters);
  return database.query<BatchRow>(BATCHES_IN_RANGE(1, 2, 3, 4), [f.kind, f.fromDate, f.toDate, f.rewardType ?? null]);
}

/** The batches of a kind (and reward type, or any when null) whose run dates lie in a range, by run date. */
const BATCHES_IN_RANGE = (kind: number, from: number, to: number, rewardType: number) => `
  select batch_id as "batchId", kind, reward_type as "rewardType", run_date::text as "runDate", run_id::int8 as "runId" from income_batches
   where kind = $${kind} and run_date between $${from}::date and $${to}::date and ($${rewardType}::text is null or reward_type = $${rewardType})
   order by run_date, batch_id`;

export function sourceOf(b: BatchRow): string {
  if (b.kind === 'royalty') return 'Royalty Income';
  return REWARD_TYPES.find((t) => t.value === b.rewardType)?.label ?? 'Reward';
}

/**
 * The whole calendar months a range covers exactly (first day of a month to last day of a month),
 * as their first days; null when either end falls inside a month.
 */
export function wholeMonths(fromDate: string, toDate: string): string[] | null {
  const [fy, fm, fd] = fromDate.split('-').map(Number);
  const [ty, tm, td] = toDate.split('-').map(Number);
  const lastDay = new Date(Date.UTC(ty, tm, 0)).getUTCDate();
  if (fd !== 1 || td !== lastDay) return null;
  const months: string[] = [];
  for (let y = fy, m = fm; y < ty || (y === ty && m <= tm); m === 12 ? ((y += 1), (m = 1)) : (m += 1)) {
    months.push(`${y}-${String(m).padStart(2, '0')}-01`);
  }
  return months;
}

type UserTotalRow = Pick<Ledger, 'userId'> & { paise: number; n: number };
type Totals = Pick<typeof incomeMonthTotals.$inferSelect, 'users'> & { paise: number; n: number };
/** The months' totals, and what their reversals took back. */
type ReversedTotals = Totals & { reversed: (typeof incomeMonthTotals.$inferSelect)['totalPaise'] };
/** Who a receiver is: their name and rank. */
type PersonRow = Pick<CreditRow, 'userId' | 'userName' | 'rankName'>;
/** A receiver of the page with who they are and what a reversal took back from them. */
type PageUserRow = UserTotalRow & PersonRow & { reversed: number | null };

/** The totals, the page's receivers and their reversals; `people` when who they are was read with them. */
interface ReceiverTotals {
  totals: Totals;
  users: UserTotalRow[];
  reversals: ReversalRow[];
  people?: PersonRow[];
}
type ReversalRow = Pick<Ledger, 'userId'> & { paise: number; runId: number | null };

/**
 * The ledger rows of a report's batches (issue 24: what members received): the batches' credits,
 * and the TDS and admin charge lines of the runs that wrote them (those carry the run, not the
 * batch); `reversed` picks the reversal rows instead of the originals. Served by
 * ledger_batch_user_idx (batch) and ledger_run_idx (run).
 */
const OF_BATCHES = (batches: number, runs: number, reversed: boolean) => `
  (l.batch_id = any($${batches}::int[]) or (l.batch_id is null and l.kind in ('tds', 'admin_charge') and l.run_id = any($${runs}::int8[])))
  and l.reversal_of is ${reversed ? 'not null' : 'null'}`;

/** Members by name: users_name_sort_idx's order (lower(full_name), user_id). */
const BY_NAME = (up: boolean) => `lower(u.full_name) ${up ? 'asc' : 'desc'}, u.user_id ${up ? 'asc' : 'desc'}`;

/**
 * The month key a report reads the income_month_* rollups under (drizzle/functions/income_months.sql:
 * net of deductions, reversals under reward_key || ':reversed'): for a range of whole months
 * without a name filter (the screens' default: the current month); null when the report groups
 * the batches' ledger rows instead.
 */
function monthlyRollup(f: IncomeFilters): { months: string[]; key: string } | null {
  const months = f.userName ? null : wholeMonths(f.fromDate, f.toDate);
  const key = f.kind === 'royalty' ? '' : f.rewardType;
  return months && key !== undefined ? { months, key } : null;
}

/**
 * A rollup key as SQL text. The key is one of a handful of constants ('' for royalty, a reward
 * type), written into the statement rather than bound: bound, PostgreSQL found a plan for the
 * royalty's '' cheaper than any plan for an unknown key, and so planned the statement anew on
 * every request (0.3 ms of planning against 0.03 ms of execution, bench/results.md); written in,
 * each key's statement keeps one plan. Anything but letters and underscores is refused.
 */
function keyLiteral(key: string): string {
  if (!/^[A-Za-z_:]*$/.test(key)) throw new Error(`Not a rollup key: ${JSON.stringify(key)}`);
  return `'${key}'::text`;
}

/**
 * A range of whole months from the rollups, in one statement (issue 23): one page of receivers
 * (largest income first, or by name) with who they are and what a reversal took back from each
 * (their rank and name looked up by primary key, the reversal by income_month_users' key, for the
 * page's rows only), carrying the totals with what the reversals took back and the range's
 * batches (pageWith: asked on their own only when the page is empty). By name, the month's rows
 * are joined to their members (users_name_sort_idx walked in order with each member's row looked
 * up by its primary key, or the month's receivers sorted when they are few).
 */
async function monthTotals(
  database: Database, f: IncomeFilters, { months, key }: { months: string[]; key: string }, sort: IncomeSort, page: number, limit: number,
): Promise<ReceiverTotals & { batches: BatchRow[] }> {
  const { key: sortKey, desc } = sortParts(sort);
  const byName = sortKey === 'userName';
  // Smallest first reads income_month_users_top_idx backwards: amount ascending, then user id descending.
  const up = !desc;
  const one = months.length === 1;
  const order = byName ? BY_NAME(up) : up ? 'm.total_paise asc, m.user_id desc' : 'm.total_paise desc nulls last, m.user_id';
  const [rewardKey, reversed] = [keyLiteral(key), keyLiteral(`${key}:reversed`)];
  const people = `coalesce(u.username, u.full_name) as "userName", r.name as "rankName",
    (select sum(x.total_paise) from income_month_users x
      where x.kind = $1 and x.reward_key = ${reversed} and x.month = ${one ? '$2::date' : 'any($2::date[])'} and x.user_id = m.user_id)::int8 as reversed`;
  // $1 kind, $2 the month (or months), $3–$5 the batches' range and reward type.
  const figures = (n: (i: number) => number) => {
    const [kind, month] = [1, 2].map((i) => `$${n(i)}`);
    const batches = `(select coalesce(json_agg(b), '[]'::json) from (${BATCHES_IN_RANGE(n(1), n(3), n(4), n(5))}) b) as batches`;
    return one
      ? `select coalesce(sum(total_paise) filter (where reward_key = ${rewardKey}), 0)::int8 as paise,
                coalesce(sum(entries) filter (where reward_key = ${rewardKey}), 0)::int8 as n,
                coalesce(sum(users) filter (where reward_key = ${rewardKey}), 0)::int8 as users,
                coalesce(sum(total_paise) filter (where reward_key = ${reversed}), 0)::int8 as reversed, ${batches}
           from income_month_totals where kind = ${kind} and reward_key in (${rewardKey}, ${reversed}) and month = ${month}::date`
      : `select coalesce(sum(total_paise), 0)::int8 as paise, coalesce(sum(entries), 0)::int8 as n, count(distinct user_id)::int8 as users,
                (select coalesce(sum(total_paise), 0) from income_month_totals
                  where kind = ${kind} and reward_key = ${reversed} and month = any(${month}::date[]))::int8 as reversed, ${batches}
           from income_month_users where kind = ${kind} and reward_key = ${rewardKey} and month = any(${month}::date[])`;
  };
  // The figures' values in their own numbering ($1–$5); the page puts its limit and offset (if bound) after the first two.
  const values = [f.kind, one ? months[0] : months, f.fromDate, f.toDate, f.rewardType ?? null];
  const bounds = pageBounds(page, limit, 3);
  const { rows: users, extra: [totals] } = await pageWith<PageUserRow, (ReversedTotals & { batches: BatchRow[] })[]>(database, {
    text: (column) => one
      ? `select m.user_id as "userId", m.total_paise as paise, m.entries as n, ${people}, ${column}
           from income_month_users m join users u on u.user_id = m.user_id left join ranks r on r.rank_id = u.rank_id
          where m.kind = $1 and m.reward_key = ${rewardKey} and m.month = $2::date and m.total_paise <> 0
          order by ${order} ${bounds.sql}`
      : `select m.user_id as "userId", m.paise, m.n, ${people}, ${column} from (
           select user_id, sum(total_paise)::int8 as paise, sum(entries)::int8 as n from income_month_users
            where kind = $1 and reward_key = ${rewardKey} and month = any($2::date[]) group by user_id having sum(total_paise) <> 0) m
          join users u on u.user_id = m.user_id left join ranks r on r.rank_id = u.rank_id
          order by ${byName ? BY_NAME(up) : `m.paise ${up ? 'asc' : 'desc'}, m.user_id ${up ? 'desc' : 'asc'}`} ${bounds.sql}`,
    params: [...values.slice(0, 2), ...bounds.params, ...values.slice(2)],
  }, (params, alone) => {
    if (!alone) return figures((i) => (i <= 2 ? i : i + bounds.params.length));
    params.push(...values);
    return figures((i) => i);
  });
  const reversals: ReversalRow[] = users
    .filter((u) => u.reversed !== null && Number(u.reversed) !== 0)
    .map((u) => ({ userId: u.userId, paise: u.reversed!, runId: null }));
  const { batches, ...sums } = totals;
  return { totals: { ...sums, paise: Number(sums.paise) + Number(sums.reversed) }, users, reversals, people: users, batches };
}

/** Totals and one page of receivers (largest income first, or by name) from the ledger rows of the batches. */
async function ledgerTotals(database: Database, f: IncomeFilters, sort: IncomeSort, batches: BatchRow[], page: number, limit: number): Promise<ReceiverTotals> {
  const { key: sortKey, desc } = sortParts(sort);
  const byName = sortKey === 'userName';
  const up = !desc;
  const ids = batches.map((b) => b.batchId);
  const runs = batches.map((b) => b.runId).filter((r): r is number => r !== null);
  const name = f.userName ? containsPattern(f.userName) : null;
  const join = name || byName ? 'join users u on u.user_id = l.user_id' : '';
  const matches = name ? `and ${NAME_MATCH(3)}` : '';
  const base = name ? [ids, runs, name] : [ids, runs];
  const [[totals], users] = await Promise.all([
    database.query<Totals>(`
      select coalesce(sum(l.amount_paise), 0)::int8 as paise,
             count(*) filter (where l.reversal_of is null and l.amount_paise > 0)::int8 as n,
             count(distinct l.user_id) filter (where l.reversal_of is null)::int8 as users
        from ledger_entries l ${name ? 'join users u on u.user_id = l.user_id' : ''}
       where (${OF_BATCHES(1, 2, false)} or ${OF_BATCHES(1, 2, true)}) ${matches}`, base),
    database.query<UserTotalRow>(`
      select l.user_id as "userId", sum(l.amount_paise)::int8 as paise, count(*) filter (where l.amount_paise > 0)::int8 as n
        from ledger_entries l ${join}
       where ${OF_BATCHES(1, 2, false)} ${matches}
       group by l.user_id${byName ? ', u.full_name, u.user_id' : ''} having sum(l.amount_paise) <> 0
       order by ${byName ? BY_NAME(up) : `sum(l.amount_paise) ${up ? 'asc' : 'desc'}, l.user_id ${up ? 'desc' : 'asc'}`}
       limit $${base.length + 1} offset $${base.length + 2}`, [...base, limit, (page - 1) * limit]),
  ]);
  const reversals = users.length === 0 ? [] : await database.query<ReversalRow>(`
    select l.user_id as "userId", sum(l.amount_paise)::int8 as paise, max(l.run_id)::int8 as "runId"
      from ledger_entries l
     where ${OF_BATCHES(1, 2, true)} and l.user_id = any($3::int8[])
     group by l.user_id, l.run_id having sum(l.amount_paise) <> 0`, [ids, runs, users.map((u) => u.userId)]);
  return { totals, users, reversals };
}

/**
 * Level income (issue 24: on a report): the activations' level_income credits of the range, per
 * member, read through ledger_kind_created_idx (kind, created_at): a month's level income is its
 * activations × their paid levels (≤ 10 each). No batches.
 */
async function levelIncomeTotals(database: Database, f: IncomeFilters, sort: IncomeSort, page: number, limit: number): Promise<ReceiverTotals> {
  const { key: sortKey, desc } = sortParts(sort);
  const name = f.userName ? containsPattern(f.userName) : null;
  const byName = sortKey === 'userName';
  const params: unknown[] = name ? [f.fromDate, f.toDate, name] : [f.fromDate, f.toDate];
  const where = `l.kind = 'level_income' and ${IST_RANGE} ${name ? `and ${NAME_MATCH(3)}` : ''}`;
  const join = name || byName ? 'join users u on u.user_id = l.user_id' : '';
  const [[totals], users] = await Promise.all([
    database.query<Totals>(`
      select coalesce(sum(l.amount_paise), 0)::int8 as paise, count(*)::int8 as n, count(distinct l.user_id)::int8 as users
        from ledger_entries l ${name ? 'join users u on u.user_id = l.user_id' : ''} where ${where}`, params),
    database.query<UserTotalRow>(`
      select l.user_id as "userId", sum(l.amount_paise)::int8 as paise, count(*)::int8 as n
        from ledger_entries l ${join} where ${where}
       group by l.user_id${byName ? ', u.full_name, u.user_id' : ''} having sum(l.amount_paise) <> 0
       order by ${byName ? BY_NAME(!desc) : `sum(l.amount_paise) ${desc ? 'desc' : 'asc'}, l.user_id ${desc ? 'asc' : 'desc'}`}
       limit $${params.length + 1} offset $${params.length + 2}`, [...params, limit, (page - 1) * limit]),
  ]);
  return { totals, users, reversals: [] as ReversalRow[] };
}

/** A reward or royalty report over a range without batches. */
const noBatches = () => ({ data: [], users: [], reversals: [], totalAmount: 0, totalUsers: 0, transactions: 0 });

/**
 * The report: totals over every receiver of the range's batches (net received, reversals
 * included), one page of users grouped by user, their reversals as rows of their own, and the
 * batches with their receivers among that page's users.
 */
export async function incomeReport(database: Database, filters: IncomeFilters, sort: IncomeSort, page: number, limit: number) {
  const f = batchSource(filters);
  const level = f.kind === 'reward' && f.rewardType === LEVEL_INCOME;
  const rollup = level ? null : monthlyRollup(f);
  let batches: BatchRow[] = [];
  let found: ReceiverTotals;
  if (level) found = await levelIncomeTotals(database, f, sort, page, limit);
  else if (rollup) {
    ({ batches, ...found } = await monthTotals(database, f, rollup, sort, page, limit));
    if (batches.length === 0) return noBatches();
  } else {
    batches = await batchesInRange(database, f);
    if (batches.length === 0) return noBatches();
    found = await ledgerTotals(database, f, sort, batches, page, limit);
  }
  const ids = batches.map((b) => b.batchId);
  const { totals, users: totalsByUser, reversals, people: known } = found;
  const pageIds = totalsByUser.map((u) => u.userId);
  const [people, receivers] = pageIds.length === 0 ? [[], []] : await Promise.all([
    known ?? database.query<PersonRow>(`
      select u.user_id as "userId", coalesce(u.username, u.full_name) as "userName", r.name as "rankName"
        from users u left join ranks r on r.rank_id = u.rank_id where u.user_id = any($1::int8[])`, [pageIds]),
    // The page's receivers are known (people): their credits are read without them.
    level ? [] : database.query<OwnCreditRow>(`
      select ${OWN_CREDIT_COLUMNS}
        from ledger_entries l
       where l.user_id = any($2::int8[]) and l.batch_id = any($1::int[]) and l.reversal_of is null
       order by l.created_at, l.id`, [ids, pageIds]),
  ]);
  const person = new Map(people.map((p) => [Number(p.userId), p]));

  return {
    data: batches.map((b) => ({
      batchId: b.batchId,
      kind: b.kind,
      rewardType: b.rewardType,
      runDate: b.runDate,
      source: sourceOf(b),
      status: 'Paid',
      receivers: receivers
        .filter((r) => r.batchId === b.batchId)
        .map((r) => {
          const amount = paiseToRupees(r.amountPaise);
          const { userName = '', rankName = null } = person.get(Number(r.userId)) ?? {};
          return {
            userId: r.userId,
            userName,
            amount,
            rankName,
            dateTime: r.createdAt,
            level: royaltyDisplayLevel(rankName, amount),
          };
        }),
    })),
    users: totalsByUser.map((u) => {
      const amount = paiseToRupees(Number(u.paise));
      const rankName = person.get(Number(u.userId))?.rankName ?? null;
      return {
        userId: Number(u.userId),
        userName: person.get(Number(u.userId))?.userName ?? '',
        rankName,
        level: royaltyDisplayLevel(rankName, amount),
        amount,
        transactions: Number(u.n),
      };
    }),
    reversals: reversals.map((r) => ({
      userId: Number(r.userId),
      userName: person.get(Number(r.userId))?.userName ?? '',
      amount: paiseToRupees(Number(r.paise)),
      label: r.runId === null ? 'Reversal' : `Reversal of run ${r.runId}`,
    })),
    totalAmount: paiseToRupees(Number(totals.paise)),
    totalUsers: Number(totals.users),
    transactions: Number(totals.n),
  };
}
