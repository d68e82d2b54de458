import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, renderRoutes, signIn } from '../../test-utils';
import { useLocation } from 'react-router';
import BooksPage from './books-page';

/** Where a link led (the runs screen itself is tested on its own: runs-page.test opens `?run=N`). */
function Landed() {
  const { pathname, search } = useLocation();
  return <p>{`Landed on ${pathname}${search}`}</p>;
}

const account = (code: string, name: string, type: string, balance: number) => ({
  code, name, type, description: `${name} description`, balance,
  debit: balance < 0 ? -balance : null, credit: balance > 0 ? balance : null,
});
const CHART = [
  account('company_bank', 'Company bank', 'asset', -6300.5),
  account('outside_payments', 'Outside payments to match', 'asset', 0),
  account('recoveries_owed', 'Recoveries owed by members', 'asset', 0),
  account('member_wallets', 'Member wallets', 'liability', 5000),
  account('withdrawals_payable', 'Withdrawals to send', 'liability', 1200),
  account('bank_in_transit', 'Bank transfers in transit', 'liability', 0),
  account('tds_payable', 'TDS payable', 'liability', 0),
  account('membership_revenue', 'Membership revenue', 'income', 1000),
  account('admin_charge_income', 'Admin charge income', 'income', 0),
  account('level_income_expense', 'Level income', 'expense', -100),
  account('daily_payout_expense', 'Daily payout', 'expense', 0),
  account('royalty_expense', 'Royalty', 'expense', 0),
  account('reward_expense', 'Rewards', 'expense', -799.5),
  account('operator_credits', 'Operator credits', 'expense', 0),
  account('rounding', 'Rounding', 'expense', 0),
];
const TB = (balanced: boolean) => ({
  success: true,
  data: { date: '2026-11-25', accounts: CHART, totalDebit: 7200, totalCredit: balanced ? 7200 : 7210, difference: balanced ? 0 : 10, balanced },
});
const cause = { run: null, batchId: null, approvalId: null, bankBatchId: null, operator: { userId: 5, name: 'Asha Admin' }, text: 'By Asha Admin' };
const STATEMENT = {
  success: true,
  data: {
    account: { code: 'company_bank', name: 'Company bank', type: 'asset', description: 'd' },
    fromDate: '2026-11-01', toDate: '2026-11-30', opening: 0, openingSide: { debit: null, credit: null },
    closing: -6300.5, closingSide: { debit: 6300.5, credit: null }, movement: -6300.5, debits: 6300.5, credits: 0,
    legs: [
      { id: 1, transferId: 41, dateTime: '2026-11-03T06:30:00.000Z', kind: 'wallet_recharge', kindLabel: 'Wallet Recharge', description: null,
        member: null, debit: 6300.5, credit: null, balanceAfter: -6300.5, cause },
    ],
    total: 1, page: 1, limit: 25,
  },
};
const TRANSFER = {
  success: true,
  data: {
    id: 41, kind: 'wallet_recharge', kindLabel: 'Wallet Recharge', dateTime: '2026-11-03T06:30:00.000Z', description: 'Recharge', cause,
    corrects: null, correctedBy: [], beforeTheBooks: false,
    companyLegs: [{ account: 'company_bank', name: 'Company bank', debit: 6300.5, credit: null }],
    memberLines: [{ id: 9, member: { userId: 101, name: 'Pooja Nair' }, kind: 'wallet_recharge', kindLabel: 'Wallet Recharge', description: null,
      debit: null, credit: 6300.5, counterAccount: 'Company bank' }],
    memberLinesTotal: 1, memberTotal: 6300.5, page: 1, limit: 20,
  },
};

function serve(balanced = true) {
  return mockFetch((path) => {
    if (path.startsWith('/books/trial-balance')) return jsonResponse(200, TB(balanced));
    if (path.startsWith('/books/accounts/company_bank/statement')) return jsonResponse(200, STATEMENT);
    if (path.startsWith('/books/transfers/41')) return jsonResponse(200, TRANSFER);
    return jsonResponse(404, { success: false, message: 'Not here' });
  });
}
const calls = (fetchMock: ReturnType<typeof mockFetch>) => fetchMock.mock.calls.map((c) => String(c[0]));

describe('the Books screen (issue 25)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the trial balance: every account with its debit or credit, the totals, "Balanced"; a date asks for that day', async () => {
    signIn(['books_view']);
    const fetchMock = serve();
    renderPage(<BooksPage />, { path: '/books' });
    const table = await screen.findByRole('table', { name: /^Trial balance at the end of/ });
    expect(await within(table).findByRole('button', { name: 'Open the statement of Company bank' })).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 15 + 1);
    const bank = within(table).getByRole('row', { name: /Company bank/ });
    expect(bank.textContent).toContain('₹6,300.50');
    expect(screen.getByRole('status').textContent).toContain('Balanced');
    expect(within(screen.getByRole('region', { name: 'Total debits' })).getByText('₹7,200.00')).toBeTruthy();
    expect(within(table).getAllByRole('row').at(-1)!.textContent).toBe('Total₹7,200.00₹7,200.00');
    expect(calls(fetchMock)[0]).toBe('/api/books/trial-balance');

    fireEvent.change(screen.getByLabelText('Balances at the end of'), { target: { value: '2026-10-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(calls(fetchMock).at(-1)).toBe('/api/books/trial-balance?date=31-10-2026'));
  });

  it('says by how much the books are out of balance', async () => {
    signIn(['books_view']);
    serve(false);
    renderPage(<BooksPage />, { path: '/books' });
    expect((await screen.findByRole('status')).textContent).toContain('Out of balance by ₹10.00');
  });

  it('opens an account\u2019s statement for a period, and a transfer with its legs and a link to the member', async () => {
    signIn(['books_view']);
    const fetchMock = serve();
    renderPage(<BooksPage />, { path: '/books' });
    fireEvent.click(await screen.findByRole('button', { name: 'Open the statement of Company bank' }));
    const legs = await screen.findByRole('table', { name: 'Legs of Company bank' });
    expect(await within(legs).findByText('By Asha Admin')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Closing balance' })).getByText('₹6,300.50 Dr')).toBeTruthy();
    expect(calls(fetchMock).at(-1)).toMatch(/^\/api\/books\/accounts\/company_bank\/statement\?fromDate=01-\d\d-\d{4}&toDate=\d\d-\d\d-\d{4}&page=1&limit=25$/);

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls(fetchMock).at(-1)).toBe('/api/books/accounts/company_bank/statement?fromDate=01-11-2026&toDate=30-11-2026&page=1&limit=25'));

    fireEvent.click(within(legs).getByRole('button', { name: 'Open transfer 41' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transfer #41' });
    expect(await within(dialog).findByText('Legs sum to zero')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Pooja Nair' }).getAttribute('href')).toBe('/users/101');
    expect(within(dialog).getByRole('table', { name: 'Member lines of transfer 41' })).toBeTruthy();
  });

  it('links a transfer caused by a run to that run\u2019s details on the income runs screen (/income/runs?run=N)', async () => {
    signIn(['books_view', 'payouts_view']);
    const runCause = { ...cause, run: { runId: 7, kind: 'daily_payout', periodStart: '2026-11-03', periodEnd: '2026-11-03' }, operator: null, text: 'Daily payout run #7 (03-11-2026)' };
    mockFetch((path) => {
      if (path.startsWith('/books/trial-balance')) return jsonResponse(200, TB(true));
      if (path.startsWith('/books/accounts/company_bank/statement')) {
        return jsonResponse(200, { ...STATEMENT, data: { ...STATEMENT.data, legs: STATEMENT.data.legs.map((l) => ({ ...l, cause: runCause })) } });
      }
      if (path.startsWith('/books/transfers/41')) return jsonResponse(200, { ...TRANSFER, data: { ...TRANSFER.data, cause: runCause } });
      return jsonResponse(404, { success: false, message: 'Not here' });
    });
    renderRoutes([{ path: '/books', element: <BooksPage /> }, { path: '/income/runs', element: <Landed /> }], '/books');
    fireEvent.click(await screen.findByRole('button', { name: 'Open the statement of Company bank' }));
    const legs = await screen.findByRole('table', { name: 'Legs of Company bank' });
    fireEvent.click(await within(legs).findByRole('button', { name: 'Open transfer 41' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transfer #41' });
    const link = await within(dialog).findByRole('link', { name: 'Run #7' });
    expect(link.getAttribute('href')).toBe('/income/runs?run=7');
    fireEvent.click(link);
    expect(await screen.findByText('Landed on /income/runs?run=7')).toBeTruthy();
  });
});
