import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LEDGER_KIND_LABELS } from '../../../contract/ledger-kinds';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import MemberPage from './member-page';

// jsdom has no scrollIntoView; the Kind select's list scrolls its option into view.
Element.prototype.scrollIntoView = () => {};

const USER = {
  _id: '101', userId: 101, fullName: 'Pooja Nair', email: 'p@test.local', phone: '9800000001', address: null, companyName: null, role: 'User',
  status: true, lastLogin: 'Never', referredBy: null, referrerName: null, rank: null, rankId: null, level: 1, dob: null, whatsapp: null,
  image: null, state: null, referralCode: 'R101', createdAt: '2026-04-01T06:30:00.000Z',
};
const earned = (gross: number, deductions: number, reversed: number) => ({ gross, deductions, reversed, net: gross - deductions - reversed });
const MONEY = {
  success: true,
  data: {
    userId: 101, fullName: 'Pooja Nair', balance: 15335, recoveryOwed: 9, recovered: 0,
    earned: {
      levelIncome: earned(1685, 0, 0),
      dailyPayout: { ...earned(100, 10, 80), tds: 5, adminCharge: 5 },
      royalty: earned(0, 0, 0),
      rewards: earned(90, 0, 0),
      totalNet: 1785,
    },
    membership: {
      planName: 'Gold Plan', status: 'active', amount: 1000, activatedAt: '2026-11-01T06:30:00.000Z', startsOn: '2026-11-02',
      durationDays: 200, daysEarned: 10, earned: 150, cap: 2000,
    },
  },
};
const line = (over: Record<string, unknown>) => ({
  id: 1, dateTime: '2026-11-25T13:37:00.000Z', kind: 'level_income', kindLabel: 'Level Income', type: 'credit', amount: 150,
  balanceAfter: 15335, description: null, counterparty: 'By Asha Admin', run: null, operator: { userId: 100002, name: 'Asha Admin' },
  approval: null, reversalOf: null, ...over,
});
const LEDGER = {
  success: true, total: 2, page: 1, limit: 25,
  data: [
    line({ id: 2 }),
    line({
      id: 1, kind: 'daily_payout', kindLabel: 'Daily Payout', type: 'debit', amount: 9, balanceAfter: 15185,
      counterparty: 'Daily payout run #7 (24-11-2026), reversal of line #3', run: { runId: 7, kind: 'daily_payout', periodStart: '2026-11-24', periodEnd: '2026-11-24' },
      operator: null, reversalOf: 3, description: 'Reversal of run 7',
    }),
  ],
};

const STATEMENT = {
  success: true,
  data: {
    userId: 101, fullName: 'Pooja Nair', fromDate: '2026-11-01', toDate: '2026-11-30', opening: 100, closing: 4900, credits: 5000, debits: 200,
    total: 2, page: 1, limit: 25,
    lines: [
      { id: 11, transferId: 21, dateTime: '2026-11-03T06:30:00.000Z', kind: 'wallet_recharge', kindLabel: 'Wallet Recharge', description: null,
        counterAccount: 'Company bank', debit: null, credit: 5000, balanceAfter: 5100 },
      { id: 12, transferId: 22, dateTime: '2026-11-04T06:30:00.000Z', kind: 'bank_return', kindLabel: 'Bank Return', description: 'Returned by the bank',
        counterAccount: 'Bank transfers in transit', debit: 200, credit: null, balanceAfter: 4900 },
    ],
  },
};

const bankLine = (over: Record<string, unknown>) => ({
  id: 41, batchId: 3, userId: 101, userName: 'Pooja Nair', ledgerEntryId: 141, source: 'withdrawal', amount: 500, beneficiaryName: 'Pooja Nair',
  accountNumber: 'XXXXXXXX1234', ifsc: 'SBIN0001234', reference: 'BT3-41', status: 'in_transit', utr: null, returnReason: null,
  inTransitSince: '2026-11-20T06:30:00.000Z', settledAt: null, returnedAt: null, returnApprovalId: null, returnApprovalStatus: null, ...over,
});
const BANK_LINES = {
  success: true, total: 3, page: 1, limit: 10, waiting: { count: 2, total: 750, withoutAccount: false },
  data: [
    bankLine({ id: 43, reference: 'BT5-43', amount: 300, returnReason: 'Account closed', returnApprovalId: 77, returnApprovalStatus: 'pending' }),
    bankLine({ id: 42, reference: 'BT4-42', status: 'settled', utr: 'HDFCN520261120001', settledAt: '2026-11-21T06:30:00.000Z' }),
    bankLine({ id: 41, reference: 'BT3-41', status: 'returned', returnReason: 'Invalid IFSC', returnedAt: '2026-11-21T06:30:00.000Z' }),
  ],
};

function serve(calls: string[] = []) {
  return mockFetch((path) => {
    calls.push(path);
    if (path.startsWith('/users/updateByUserId/101')) return jsonResponse(200, { success: true, user: USER });
    if (path.startsWith('/wallet/members/101/money')) return jsonResponse(200, MONEY);
    if (path.startsWith('/wallet/members/101/ledger.csv')) return new Response('Line\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } });
    if (path.startsWith('/wallet/members/101/ledger')) return jsonResponse(200, LEDGER);
    if (path.startsWith('/wallet/members/101/statement.csv')) return new Response('Line\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } });
    if (path.startsWith('/wallet/members/101/statement')) return jsonResponse(200, STATEMENT);
    if (path.startsWith('/bank-transfers/members/101/lines')) return jsonResponse(200, BANK_LINES);
    return jsonResponse(404, { success: false, message: 'Not here' });
  });
}

const open = () => renderPage(<MemberPage />, { path: '/users/:userId', url: '/users/101' });
const ledgerCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map((c) => String(c[0])).filter((u) => u.startsWith('/api/wallet/members/101/ledger'));

describe('the member page shows the member\u2019s money (issue 24)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the balance, earned to date by kind (gross, deductions, reversed, net), the recovery owed and the membership, in rupees', async () => {
    signIn(['users_view', 'wallet_view']);
    serve();
    open();
    const money = await screen.findByRole('region', { name: 'Money' });
    expect(await within(money).findByText('₹15,335.00')).toBeTruthy();
    expect(within(within(money).getByRole('group', { name: 'Earned to date (net)' })).getAllByText('₹1,785.00')).toHaveLength(1);
    expect(within(within(money).getByRole('group', { name: 'Recovery owed' })).getByText('₹9.00')).toBeTruthy();
    expect(within(within(money).getByRole('group', { name: 'Membership' })).getByText('Gold Plan')).toBeTruthy();
    const payout = within(money).getByRole('row', { name: /Daily payout/ });
    expect(within(payout).getAllByRole('cell').map((c) => c.textContent)).toEqual(['₹100.00', '-₹10.00', '-₹80.00', '₹10.00']);
    expect(within(money).getByRole('row', { name: /Level income/ }).textContent).toContain('₹1,685.00');
    expect(document.body.textContent).not.toContain('$');
  });

  it('shows where the withdrawn money is: what waits for the next bank batch, and each transfer with its state, a held return said so', async () => {
    signIn(['users_view', 'wallet_view']);
    serve();
    open();
    const section = await screen.findByRole('region', { name: 'Transfers to the bank' });
    expect(await within(section).findByText('2 approved withdrawals (₹750.00) wait for the next bank batch.')).toBeTruthy();
    const table = within(section).getByRole('table', { name: "Transfers to the member's bank" });
    const row = (ref: string) => within(table).getByText(ref).closest('tr') as HTMLElement;
    expect(within(row('BT5-43')).getByText('Return awaits approval')).toBeTruthy();
    expect(within(row('BT5-43')).getByText('Account closed')).toBeTruthy();
    expect(within(row('BT4-42')).getByText('Settled')).toBeTruthy();
    expect(within(row('BT4-42')).getByText('HDFCN520261120001')).toBeTruthy();
    expect(within(row('BT3-41')).getByText('Returned')).toBeTruthy();
    expect(within(row('BT3-41')).getByText('₹500.00')).toBeTruthy();
  });

  it('says when waiting withdrawals cannot be sent for want of a primary bank account', async () => {
    signIn(['users_view', 'wallet_view']);
    BANK_LINES.waiting = { count: 1, total: 40, withoutAccount: true };
    try {
      serve();
      open();
      const section = await screen.findByRole('region', { name: 'Transfers to the bank' });
      expect(await within(section).findByText('1 approved withdrawal (₹40.00) cannot be sent: the member has no primary bank account.')).toBeTruthy();
    } finally {
      BANK_LINES.waiting = { count: 2, total: 750, withoutAccount: false };
    }
  });

  it('lists the ledger: kind in words, counter-party, credit or debit, balance after', async () => {
    signIn(['users_view', 'wallet_view']);
    serve();
    open();
    const ledger = await screen.findByRole('table', { name: 'Ledger of Pooja Nair' });
    expect(await within(ledger).findByText('Daily payout run #7 (24-11-2026), reversal of line #3')).toBeTruthy();
    expect(within(ledger).getByText('By Asha Admin')).toBeTruthy();
    expect(within(ledger).getByText('+₹150.00')).toBeTruthy();
    expect(within(ledger).getByText('-₹9.00')).toBeTruthy();
    expect(within(ledger).getByText('₹15,185.00')).toBeTruthy();
    for (const header of ['Date & Time', 'Kind', 'Counter-party', 'Credit', 'Debit', 'Balance After']) {
      expect(within(ledger).getByRole('columnheader', { name: header })).toBeTruthy();
    }
  });

  it('filters by every kind of the ledger in words, and by dates sent as dd-mm-yyyy; exports what is filtered', async () => {
    signIn(['users_view', 'wallet_view']);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
    const fetchMock = serve();
    open();
    await screen.findByRole('table', { name: 'Ledger of Pooja Nair' });
    const ledger = screen.getByRole('region', { name: 'Ledger' });
    fireEvent.click(within(ledger).getAllByLabelText(/^Kind/)[0]);
    const options = await screen.findAllByRole('option', { hidden: true });
    expect(options.map((o) => o.textContent)).toEqual(['All kinds', ...Object.values(LEDGER_KIND_LABELS)]);
    fireEvent.click(options.find((o) => o.textContent === 'Level Income')!);
    await waitFor(() => expect(ledgerCalls(fetchMock).at(-1)).toBe('/api/wallet/members/101/ledger?kind=level_income&page=1&limit=25'));

    fireEvent.change(within(ledger).getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(within(ledger).getByLabelText('To'), { target: { value: '2026-11-25' } });
    fireEvent.click(within(ledger).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(ledgerCalls(fetchMock).at(-1))
      .toBe('/api/wallet/members/101/ledger?kind=level_income&fromDate=01-11-2026&toDate=25-11-2026&page=1&limit=25'));

    fireEvent.click(within(ledger).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(ledgerCalls(fetchMock).at(-1))
      .toBe('/api/wallet/members/101/ledger.csv?kind=level_income&fromDate=01-11-2026&toDate=25-11-2026'));
  });

  it('prints the ledger: the period\u2019s lines under a heading with the member, the period and when it was printed', async () => {
    signIn(['users_view', 'wallet_view']);
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const fetchMock = serve();
    open();
    await screen.findByRole('table', { name: 'Ledger of Pooja Nair' });
    expect(screen.queryByText('Ledger of account')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Print ledger' }));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(ledgerCalls(fetchMock)).toContain('/api/wallet/members/101/ledger?page=1&limit=500');
    const heading = screen.getByText('Ledger of account').parentElement!;
    expect(heading.className).toBe('print-only');
    expect(heading.textContent).toContain('Pooja Nair · Member #101');
    expect(heading.textContent).toContain('Period: All dates · Kind: All kinds');
    expect(heading.textContent).toMatch(/Printed \d/);
    expect(screen.getByRole('table', { name: 'Printed ledger of Pooja Nair' })).toBeTruthy();
    // Buttons and filters stay off the paper, and so does the statement below.
    expect(screen.getByRole('button', { name: 'Print ledger' }).className).toContain('no-print');
    expect(screen.getByRole('region', { name: 'Statement' }).closest('.no-print')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Filter the ledger' }).closest('.no-print')).toBeTruthy();
  });

  it('shows the statement (issue 25): opening, closing, each line with its counter-account in words; CSV and print of the period', async () => {
    signIn(['users_view', 'wallet_view']);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const fetchMock = serve();
    open();
    const table = await screen.findByRole('table', { name: /^Statement of Pooja Nair/ });
    const section = screen.getByRole('region', { name: 'Statement' });
    expect(within(within(section).getByRole('group', { name: 'Opening balance' })).getByText('₹100.00')).toBeTruthy();
    expect(within(within(section).getByRole('group', { name: 'Closing balance' })).getByText('₹4,900.00')).toBeTruthy();
    expect(await within(table).findByText('Company bank')).toBeTruthy();
    expect(within(table).getByText('Bank transfers in transit')).toBeTruthy();
    expect(within(table).getByText('-₹200.00')).toBeTruthy();
    const calls = () => fetchMock.mock.calls.map((c) => String(c[0])).filter((u) => u.startsWith('/api/wallet/members/101/statement'));
    expect(calls()[0]).toMatch(/^\/api\/wallet\/members\/101\/statement\?fromDate=01-\d\d-\d{4}&toDate=\d\d-\d\d-\d{4}&page=1&limit=25$/);

    fireEvent.change(within(section).getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(within(section).getByLabelText('To'), { target: { value: '2026-11-30' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls().at(-1)).toBe('/api/wallet/members/101/statement?fromDate=01-11-2026&toDate=30-11-2026&page=1&limit=25'));
    fireEvent.click(within(section).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(calls().at(-1)).toBe('/api/wallet/members/101/statement.csv?fromDate=01-11-2026&toDate=30-11-2026'));

    fireEvent.click(screen.getByRole('button', { name: 'Print statement' }));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(calls()).toContain('/api/wallet/members/101/statement?fromDate=01-11-2026&toDate=30-11-2026&page=1&limit=500');
    const heading = screen.getByText('Statement of account').parentElement!;
    expect(heading.className).toBe('print-only');
    expect(heading.textContent).toContain('Opening balance ₹100.00');
    expect(heading.textContent).toContain('Closing balance ₹4,900.00');
    expect(screen.getByRole('region', { name: 'Ledger' }).className).toContain('no-print');
  });

  it('shows no money without wallet_view and asks nothing of the wallet', async () => {
    signIn(['users_view']);
    const calls: string[] = [];
    serve(calls);
    open();
    await screen.findByRole('heading', { name: 'Pooja Nair' });
    expect(screen.queryByRole('region', { name: 'Money' })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Ledger of Pooja Nair' })).toBeNull();
    expect(calls.filter((c) => c.startsWith('/wallet/'))).toEqual([]);
  });
});
