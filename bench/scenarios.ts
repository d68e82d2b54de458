import { randomUUID } from 'node:crypto';
import { MAX_PAGED_ROWS } from '../src/contract/common.ts';

/** What the seeded database offers the scenarios (found once, before the server starts). */
export interface BenchParams {
  rootId: number;
  rootDownline: number;
  referrerId: number;
  walletUserIds: number[];
  fromDate: string;
  toDate: string;
}

export interface Scenario {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  /** A write's bodies, sent in turn, each request with an Idempotency-Key of its own. */
  bodies?: string[];
  /** Read scenarios also get the database's own execution time (EXPLAIN ANALYZE). */
  read: boolean;
  /** Targets of issue 7 (PostgreSQL, 1M members, 16 connections). */
  p95Target: number;
  minRps?: number;
}

export function scenarios(p: BenchParams): Scenario[] {
  const month = `fromDate=${p.fromDate}&toDate=${p.toDate}`;
  return [
    { name: 'users page (no filter)', path: '/api/users/getAllusers?page=1&limit=25', read: true, p95Target: 25 },
    { name: 'users page (name search)', path: '/api/users/getAllusers?search=sharma&page=1&limit=25', read: true, p95Target: 25 },
    { name: 'users page (level + rank)', path: '/api/users/getAllusers?level=5&rankId=100003&page=1&limit=25', read: true, p95Target: 25 },
    { name: 'downline of a member', path: `/api/users/downline?userId=${p.referrerId}`, read: true, p95Target: 25 },
    {
      name: `downline-tree counts (root of ${p.rootDownline.toLocaleString('en-IN')})`,
      path: `/api/users/downline-tree?userId=${p.rootId}&depth=10`,
      read: true,
      p95Target: 25,
    },
    { name: 'dashboard stats', path: '/api/users/getAllUser', read: true, p95Target: 10 },
    { name: 'revenue month with totals', path: `/api/wallets/adminRevenue?${month}`, read: true, p95Target: 50 },
    { name: 'royalty month', path: `/api/royalties/royaltyStats?${month}`, read: true, p95Target: 50 },
    { name: 'reward month', path: `/api/rewards/rewardsDaily?${month}&transactionType=dailyPayout`, read: true, p95Target: 50 },
    { name: 'daily payouts month with totals', path: `/api/wallets/dailyPayout?${month}`, read: true, p95Target: 50 },
    { name: 'wallet history page', path: '/api/users/walletHistory?transactionType=wallet_recharge&page=1&limit=25', read: true, p95Target: 25 },
    // The books (issue 25): the trial balance from the daily rollups (target: answers in ≤ 1 s at
    // 1M members and 10M transfers), and an account's statement over the month, first page of legs.
    { name: 'books: trial balance (today)', path: '/api/books/trial-balance', read: true, p95Target: 1000 },
    { name: 'books: company bank statement month', path: `/api/books/accounts/company_bank/statement?${month}&page=1&limit=25`, read: true, p95Target: 1000 },
    { name: 'books: member wallets statement month', path: `/api/books/accounts/member_wallets/statement?${month}&page=1&limit=25`, read: true, p95Target: 1000 },
    // The TDS report (issue 25, docs/tax.md) of the quarter the month starts in: members and totals from
    // the rollup (tds_quarter_members, tds_quarter_totals), each member's lines by their own index
    // range; a page deep in the quarter too (an offset over the rollup's key). Target: well under 1 s at 1M members.
    { name: 'tax: TDS report page (quarter totals)', path: `/api/tax/tds?${quarterOf(p.fromDate)}&page=1&limit=25`, read: true, p95Target: 250 },
    // The deepest page the API serves (MAX_PAGED_ROWS: page × limit ≤ 10,000; page 4,000 was refused with a 400 on every request).
    { name: 'tax: TDS report page 400 (the deepest)', path: `/api/tax/tds?${quarterOf(p.fromDate)}&page=${MAX_PAGED_ROWS / 25}&limit=25`, read: true, p95Target: 500 },
    {
      name: 'wallet recharge (POST, fresh Idempotency-Key)',
      path: '/api/wallets/userWalletRecharge',
      method: 'POST',
      bodies: p.walletUserIds.map((userId) => JSON.stringify({ userId, amount: 10.5, transactionType: 'wallet_recharge' })),
      read: false,
      p95Target: 40,
      minRps: 800,
    },
  ];
}

/** The financial-year quarter (year=&quarter=) holding a wire date (dd-mm-yyyy). */
function quarterOf(wireDate: string): string {
  const [, m, y] = wireDate.split('-').map(Number);
  return m >= 4 ? `year=${y}&quarter=${Math.floor((m - 4) / 3) + 1}` : `year=${y - 1}&quarter=4`;
}

export const newIdempotencyKey = () => randomUUID();

/**
 * The benchmark's one administrator makes tens of thousands of recharges a run: its daily credit
 * limit (four eyes, default ₹10,00,000) would refuse them part-way, and a database kept between
 * runs on one day would carry the total over.
 */
export const BENCH_LIMITS = { DAILY_CREDIT_LIMIT: '1000000000' };

type MixRequest = {
  method?: 'GET' | 'POST';
  path: string;
  setupRequest?: (req: { headers?: Record<string, string> }) => { headers?: Record<string, string> };
};

/** Mixed traffic for the scale-out comparison (one copy against two behind nginx). */
export function mixes(p: BenchParams): Record<string, MixRequest[]> {
  const month = `fromDate=${p.fromDate}&toDate=${p.toDate}`;
  let next = 0;
  return {
    'read mix (users, dashboard, revenue, wallet history)': [
      { path: '/api/users/getAllusers?page=1&limit=25' },
      { path: '/api/users/getAllUser' },
      { path: `/api/wallets/adminRevenue?${month}` },
      { path: '/api/users/walletHistory?transactionType=wallet_recharge&page=1&limit=25' },
    ],
    'write mix (wallet recharges)': [
      {
        method: 'POST',
        path: '/api/wallets/userWalletRecharge',
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ userId: p.walletUserIds[next++ % p.walletUserIds.length], amount: 10.5, transactionType: 'wallet_recharge' }),
          headers: { ...req.headers, 'idempotency-key': newIdempotencyKey() },
        }),
      },
    ],
  };
}
