import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { isoToWireDate, sortParts } from '../../../contract/common';
import { member, membershipApi, membershipResponse, type Member, type MembershipPage, MEMBERSHIP_SORTS } from '../../../contract/membership';
import { walletApi } from '../../../contract/wallet';
import { ledgerKindLabel } from '../../../contract/ledger-kinds';
import { client } from '../../lib/api-client';

/**
 * Spec §7: the members come "as an array, or under data, or under members", each a member view
 * (userId, _id, id, fullName or name, email, phone, status, amount). A server that answers the
 * whole list (no `total`) leaves the order and the paging to the panel. Our server answers the
 * contract's one shape; anything else is still an error.
 */
const memberList = z.preprocess(
  (body) => {
    if (Array.isArray(body)) return { data: body };
    if (typeof body !== 'object' || body === null) return body;
    const { data, members } = body as { data?: unknown; members?: unknown };
    const useMembers = Array.isArray(members) && (!Array.isArray(data) || (data.length === 0 && members.length > 0));
    return useMembers ? { ...body, data: members } : body;
  },
  membershipResponse.partial({ success: true, total: true, page: true, limit: true }).extend({
    data: z.array(
      member
        .partial({ _id: true, id: true, fullName: true, name: true, currentAmount: true, dateTime: true })
        .extend({ status: z.unknown().optional(), amount: z.number().optional() }),
    ),
  }),
);
type MemberList = z.output<typeof memberList>;

const membership = client({ ...membershipApi, list: { ...membershipApi.list, responses: { 200: memberList } } });
const wallet = client(walletApi);

export const MEMBERS_PAGE_SIZE = 25;

export type MembershipSort = (typeof MEMBERSHIP_SORTS)[number] | `-${(typeof MEMBERSHIP_SORTS)[number]}`;
export const DEFAULT_MEMBERSHIP_SORT: MembershipSort = '-dateTime';

const SORTS = new Set<string>(MEMBERSHIP_SORTS.flatMap((k) => [k, `-${k}`]));

/** An order from the address; an unknown one is the default. */
export const knownMembershipSort = (value: string): MembershipSort =>
  SORTS.has(value) ? (value as MembershipSort) : DEFAULT_MEMBERSHIP_SORT;

const COMPARE: Record<(typeof MEMBERSHIP_SORTS)[number], (a: Member, b: Member) => number> = {
  dateTime: (a, b) => a.dateTime.localeCompare(b.dateTime),
  userId: (a, b) => a.userId - b.userId,
  amount: (a, b) => a.amount - b.amount,
  name: (a, b) => a.fullName.localeCompare(b.fullName, 'en-IN', { sensitivity: 'base' }) || a.userId - b.userId,
  currentAmount: (a, b) => a.currentAmount - b.currentAmount || a.userId - b.userId,
};

/** An answer as the screens show it: spec member views completed, a whole list sorted and paged here. */
export function toMembershipPage(answer: MemberList, page: number, sort: MembershipSort): MembershipPage {
  const rows: Member[] = answer.data.map((m) => {
    const fullName = m.fullName ?? m.name ?? '';
    const amount = m.amount ?? 0;
    return {
      ...m,
      _id: m._id ?? String(m.userId),
      id: m.id ?? m.userId,
      fullName,
      name: m.name ?? fullName,
      // spec §3: active unless false.
      status: m.status !== false,
      amount,
      currentAmount: m.currentAmount ?? amount,
      dateTime: m.dateTime ?? '',
    };
  });
  if (answer.total !== undefined) {
    return { success: true, data: rows, total: answer.total, page: answer.page ?? page, limit: answer.limit ?? MEMBERS_PAGE_SIZE };
  }
  const { key, desc } = sortParts(sort);
  const sorted = [...rows].sort((a, b) => (desc ? COMPARE[key](b, a) : COMPARE[key](a, b)));
  return {
    success: true,
    data: sorted.slice((page - 1) * MEMBERS_PAGE_SIZE, page * MEMBERS_PAGE_SIZE),
    total: sorted.length,
    page,
    limit: MEMBERS_PAGE_SIZE,
  };
}

/** From/To as date inputs give them (yyyy-mm-dd); sent as dd-mm-yyyy (spec §5). */
export interface DateRange {
  from: string;
  to: string;
}

/** The members call of a page: the range's days as dd-mm-yyyy. */
export const membersInput = (range: DateRange | null, page: number, sort: MembershipSort = DEFAULT_MEMBERSHIP_SORT) => ({
  query: {
    page,
    limit: MEMBERS_PAGE_SIZE,
    ...(range ? { fromDate: isoToWireDate(range.from), toDate: isoToWireDate(range.to) } : {}),
    // The default order is the server's default: not sent.
    ...(sort === DEFAULT_MEMBERSHIP_SORT ? {} : { sort }),
  },
});

/** The CSV export's query: the same range and order as the list, every row. */
export const membersCsvInput = (range: DateRange | null, sort: MembershipSort = DEFAULT_MEMBERSHIP_SORT) => {
  const { page: _page, limit: _limit, ...query } = membersInput(range, 1, sort).query;
  return { query };
};

export const membersQuery = (range: DateRange | null, page: number, sort: MembershipSort = DEFAULT_MEMBERSHIP_SORT) => {
  const input = membersInput(range, page, sort);
  return queryOptions({
    queryKey: membership.list.key(input),
    queryFn: async ({ signal }): Promise<MembershipPage> => toMembershipPage(await membership.list(input, { signal }), page, sort),
    placeholderData: keepPreviousData,
  });
};

/** An id the spec's servers send as a number or as text (a Mongo-style `_id`). */
const looseId = z.union([z.number(), z.string()]);

/**
 * Spec §3 Wallet history entry: id, userId, amount, type or transactionType (credit or debit),
 * description, date (createdAt or dateTime), transactionId. Our server sends `type` (credit or
 * debit) beside `transactionType` (the ledger kind); a spec server may send only one of them.
 */
const historyEntry = z
  .object({
    id: looseId.optional(),
    _id: looseId.optional(),
    userId: looseId.optional(),
    amount: z.coerce.number(),
    type: z.string().optional(),
    transactionType: z.string().optional(),
    description: z.string().nullable().optional(),
    date: z.string().optional(),
    createdAt: z.string().optional(),
    dateTime: z.string().optional(),
    transactionId: looseId.nullable().optional(),
  })
  .transform((e) => {
    const direction = [e.type, e.transactionType].find((t) => t === 'credit' || t === 'debit');
    const id = e.id ?? e._id ?? e.transactionId ?? '';
    return {
      id: String(id),
      amount: e.amount,
      // Neither says credit or debit: the sign of the amount does.
      type: (direction ?? (e.amount < 0 ? 'debit' : 'credit')) as 'credit' | 'debit',
      /** The kind in words (our server's ledger kinds), or what the server called it. */
      label: e.description || (e.transactionType && e.transactionType !== direction ? ledgerKindLabel(e.transactionType) : null) || 'Transaction',
      date: e.date ?? e.createdAt ?? e.dateTime ?? null,
      transactionId: e.transactionId ?? null,
    };
  });
export type AmountHistoryEntry = z.output<typeof historyEntry>;

/**
 * Spec §7: GET /users/walletHistory?transactionType=dailyPayout&userId={id} answers "user,
 * currentAmount, history or transactions": the rows under `history` (our server) or under
 * `transactions` (the spec's other shape, issue 24 item 7) are both read.
 */
export const amountHistoryResponse = z.preprocess(
  (body) => {
    if (typeof body !== 'object' || body === null) return body;
    const { history, transactions } = body as { history?: unknown; transactions?: unknown };
    return history === undefined && Array.isArray(transactions) ? { ...body, history: transactions } : body;
  },
  z.object({
    user: z.object({ userId: looseId.optional(), fullName: z.string().optional() }).passthrough().optional(),
    currentAmount: z.coerce.number(),
    history: z.array(historyEntry),
    total: z.number().optional(),
  }),
);
export type AmountHistory = z.output<typeof amountHistoryResponse>;

/** The history call read with the spec's shapes; same path and query key as the wallet's call. */
const amountHistory = client({ ...walletApi, history: { ...walletApi.history, responses: { 200: amountHistoryResponse } } });

/** A member's wallet ledger: the wallet module's history call in its one-member (dailyPayout) mode. */
export const historyInput = (userId: number) => ({ query: { transactionType: 'dailyPayout' as const, userId } });

export const fetchAmountHistory = (userId: number, signal?: AbortSignal): Promise<AmountHistory> =>
  amountHistory.history(historyInput(userId), { signal });

/** Keyed as the wallet's call: a wallet change refreshes the amount history too. */
export const amountHistoryQuery = (userId: number) =>
  queryOptions({
    queryKey: wallet.history.key(historyInput(userId)),
    queryFn: ({ signal }) => fetchAmountHistory(userId, signal),
  });
