import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isoToWireDate, sortParts, type SortValue } from '../../../contract/common';
import {
  reportsApi, royaltyDisplayLevel, type INCOME_SORTS, type IncomeAnswer, type IncomeResponse, type IncomeUser, type REVENUE_SORTS,
  type RevenueAnswer, type RevenueResponse, type RewardType,
} from '../../../contract/reports';
import { ApiError, client } from '../../lib/api-client';
import { formatDate, localDay } from '../../lib/format';

export const PAGE_SIZE = 25;

const reports = client(reportsApi);

/** The applied search: dates as the inputs give them (yyyy-mm-dd). */
export type ReportSearch = {
  from: string;
  to: string;
  userName: string;
};

/** The search as the API takes it: wire dates, and no user name when none is given. */
function rangeQuery(search: ReportSearch) {
  return { fromDate: isoToWireDate(search.from), toDate: isoToWireDate(search.to), userName: search.userName.trim() || undefined };
}

/** The Date Range card. */
export function dateRangeText(search: ReportSearch): string {
  return `${formatDate(localDay(search.from))} - ${formatDate(localDay(search.to))}`;
}

/** Revenue rows: `dateTime` / `amount`, either direction (contract REVENUE_SORTS). */
export type RevenueSort = SortValue<(typeof REVENUE_SORTS)[number]>;
/** Royalty and reward users by income (contract INCOME_SORTS). */
export type IncomeSort = SortValue<(typeof INCOME_SORTS)[number]>;

/** An order from the address, or the fallback when the address holds an unknown one. */
export function knownSort<S extends string>(value: string, keys: readonly string[], fallback: S): S {
  return keys.flatMap((k) => [k, `-${k}`]).includes(value) ? (value as S) : fallback;
}

const paiseOf = (rupees: number) => Math.round(rupees * 100);
const byText = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

/**
 * A Revenue answer as the screen uses it (issue 24 item 7). Ours comes paged with its totals; the
 * spec's `{ data: [{ dateTime, amount, userName }] }` is the whole range: it is sorted, summed and
 * paged here.
 */
export function normalizeRevenue(answer: RevenueAnswer, page: number, sort: RevenueSort = '-dateTime'): RevenueResponse {
  const rows = answer.data.map((r, i) => ({ ...r, id: r.id ?? -(i + 1), userId: r.userId ?? 0 }));
  if (answer.count !== undefined && answer.totalAmount !== undefined) {
    return { data: rows, totalAmount: answer.totalAmount, count: answer.count, daily: answer.daily ?? [], page, limit: answer.limit ?? PAGE_SIZE };
  }
  const { key, desc } = sortParts(sort);
  const compare = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
    key === 'amount' ? a.amount - b.amount : key === 'userName' ? byText(a.userName, b.userName) : Date.parse(a.dateTime) - Date.parse(b.dateTime);
  const sorted = [...rows].sort((a, b) => (desc ? compare(b, a) : compare(a, b)));
  const total = rows.reduce((sum, r) => sum + paiseOf(r.amount), 0);
  return {
    data: sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), totalAmount: total / 100, count: rows.length, daily: [], page, limit: PAGE_SIZE,
  };
}

/**
 * A Royalty / Reward Income answer as the screen uses it (issue 24 item 7). Ours carries the users
 * grouped and paged; the spec's `{ data: [{ receivers: [...] }] }` is grouped per user here (by user
 * id, or by name when a receiver has none), sorted and paged.
 */
export function normalizeIncome(answer: IncomeAnswer, page: number, sort: IncomeSort = '-amount'): IncomeResponse {
  if (answer.users !== undefined) {
    return {
      data: answer.data, users: answer.users, reversals: answer.reversals ?? [], totalAmount: answer.totalAmount ?? 0,
      totalUsers: answer.totalUsers ?? answer.users.length, transactions: answer.transactions ?? 0, page, limit: answer.limit ?? PAGE_SIZE,
    };
  }
  const groups = new Map<string, { user: IncomeUser; paise: number }>();
  let paise = 0;
  let transactions = 0;
  for (const receiver of answer.data.flatMap((b) => b.receivers)) {
    const key = receiver.userId !== undefined ? `id ${receiver.userId}` : `name ${receiver.userName}`;
    const group = groups.get(key) ?? {
      user: { userId: receiver.userId ?? 0, userName: receiver.userName, rankName: receiver.rankName ?? null, level: 1, amount: 0, transactions: 0 },
      paise: 0,
    };
    group.paise += paiseOf(receiver.amount);
    group.user.transactions += 1;
    groups.set(key, group);
    paise += paiseOf(receiver.amount);
    transactions += 1;
  }
  const users = [...groups.values()].map(({ user, paise: p }) => ({ ...user, amount: p / 100, level: royaltyDisplayLevel(user.rankName, p / 100) }));
  const { key, desc } = sortParts(sort);
  const compare = (a: IncomeUser, b: IncomeUser) => (key === 'userName' ? byText(a.userName, b.userName) : a.amount - b.amount);
  users.sort((a, b) => (desc ? compare(b, a) : compare(a, b)));
  return {
    data: answer.data, users: users.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), reversals: [], totalAmount: paise / 100,
    totalUsers: users.length, transactions, page, limit: PAGE_SIZE,
  };
}

export const revenueQuery = (search: ReportSearch, page: number, sort: RevenueSort = '-dateTime') => {
  const input = { query: { ...rangeQuery(search), page, limit: PAGE_SIZE, sort } };
  return queryOptions({
    queryKey: reports.revenue.key(input),
    queryFn: async ({ signal }) => normalizeRevenue(await reports.revenue(input, { signal }), page, sort),
    placeholderData: keepPreviousData,
  });
};

export const royaltyQuery = (search: ReportSearch, page: number, sort: IncomeSort = '-amount') => {
  const input = { query: { ...rangeQuery(search), page, limit: PAGE_SIZE, sort } };
  return queryOptions({
    queryKey: reports.royalty.key(input),
    queryFn: async ({ signal }) => normalizeIncome(await reports.royalty(input, { signal }), page, sort),
    placeholderData: keepPreviousData,
  });
};

export const rewardsQuery = (search: ReportSearch, rewardType: RewardType, page: number, sort: IncomeSort = '-amount') => {
  const input = { query: { ...rangeQuery(search), transactionType: rewardType, page, limit: PAGE_SIZE, sort } };
  return queryOptions({
    queryKey: reports.rewards.key(input),
    queryFn: async ({ signal }) => normalizeIncome(await reports.rewards(input, { signal }), page, sort),
    placeholderData: keepPreviousData,
  });
};

/** A report export's input: the applied search's whole range, without paging. */
export const reportCsvInput = (search: ReportSearch) => ({ query: rangeQuery(search) });

export type ReportKind = 'revenue' | 'royalty' | 'reward';

/** Spec §8: the load errors of the revenue, royalty and reward screens. */
export function reportErrorMessage(error: unknown, kind: ReportKind): string {
  const status = error instanceof ApiError ? error.status : 0;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 401) return 'Authentication failed. Please login again.';
  if (status === 400) {
    return kind === 'revenue' ? 'Invalid date format. Please check your date selection.' : 'Invalid request parameters...';
  }
  if (status >= 500) return 'Server error. Please try again later.';
  return `Failed to load ${kind} data: ${message}`;
}

/** The longest range whose chart gets every day filled in (a year and a day). */
const MAX_FILLED_DAYS = 366;

/**
 * The revenue chart's points: every day of the search's range, ₹0 on a day without revenue, so
 * that the line neither skips quiet days nor joins two busy days across them.
 */
export function revenueChartDays(search: ReportSearch, daily: { date: string; amount: number }[]): { date: string; amount: number }[] {
  const start = Date.parse(`${search.from}T00:00:00Z`);
  const end = Date.parse(`${search.to}T00:00:00Z`);
  const days = Math.round((end - start) / 86_400_000) + 1;
  if (!Number.isFinite(days) || days < 1 || days > MAX_FILLED_DAYS) return daily;
  const amounts = new Map(daily.map((d) => [d.date, d.amount]));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    return { date, amount: amounts.get(date) ?? 0 };
  });
}
