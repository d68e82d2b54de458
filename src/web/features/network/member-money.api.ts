import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isoToWireDate } from '../../../contract/common';
import { walletApi } from '../../../contract/wallet';
import { LEDGER_KIND_LABELS, LEDGER_KIND_NAMES, type LedgerKindName } from '../../../contract/ledger-kinds';
import { type MemberLedgerPage, type MemberMoney } from '../../../contract/member-money';
import { client } from '../../lib/api-client';

const wallet = client(walletApi);

export const LEDGER_PAGE_SIZE = 25;

/** Every kind the ledger has, in words, for the kind filter ('' is all kinds). */
export const LEDGER_KIND_OPTIONS = [
  { value: '', label: 'All kinds' },
  ...LEDGER_KIND_NAMES.map((k) => ({ value: k, label: LEDGER_KIND_LABELS[k] })),
];

/** The ledger's view as the address keeps it: kind, From/To (yyyy-mm-dd as the date inputs give them). */
export const LEDGER_FILTERS = { kind: '', from: '', to: '' };
export type LedgerView = typeof LEDGER_FILTERS;

/** The ledger call's filters for a view: wire dates dd-mm-yyyy; an unknown kind from the address is all kinds. */
export function ledgerQueryOf(view: LedgerView) {
  return {
    kind: (LEDGER_KIND_NAMES as readonly string[]).includes(view.kind) ? (view.kind as LedgerKindName) : undefined,
    fromDate: view.from ? isoToWireDate(view.from) : undefined,
    toDate: view.to ? isoToWireDate(view.to) : undefined,
  };
}

/** Balance, recovery owed, earned to date by kind and the membership (wallet feature's group: a money change refreshes it). */
export const memberMoneyQuery = (userId: number) => {
  const input = { params: { userId } };
  return queryOptions({
    queryKey: wallet.memberMoney.key(input),
    queryFn: async ({ signal }): Promise<MemberMoney> => (await wallet.memberMoney(input, { signal })).data,
  });
};

export const memberLedgerQuery = (userId: number, view: LedgerView, page: number, limit = LEDGER_PAGE_SIZE) => {
  const input = { params: { userId }, query: { ...ledgerQueryOf(view), page, limit } };
  return queryOptions({
    queryKey: wallet.memberLedger.key(input),
    queryFn: ({ signal }): Promise<MemberLedgerPage> => wallet.memberLedger(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

export const ledgerCsvInput = (userId: number, view: LedgerView) => ({ params: { userId }, query: ledgerQueryOf(view) });
export const ledgerCsvEndpoint = walletApi.memberLedgerCsv;
