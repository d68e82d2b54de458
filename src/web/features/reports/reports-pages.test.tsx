import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentMonthRange } from '../../lib/format';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import RevenuePage from './revenue-page';
import RewardIncomePage from './reward-income-page';
import RoyaltyIncomePage from './royalty-income-page';
import { revenueChartDays } from './reports.api';

const wire = (iso: string) => iso.split('-').reverse().join('-');

const REVENUE = {
  success: true,
  data: [{ id: 1, dateTime: '2026-11-05T10:30:00.000Z', amount: 999, userName: 'Asha Rao', userId: 100002 }],
  totalAmount: 123456.5,
  count: 42,
  daily: [{ date: '2026-11-05', amount: 999 }],
  page: 1,
  limit: 25,
};

const INCOME = {
  success: true,
  data: [],
  users: [
    { userId: 100003, userName: 'Ravi Kumar', rankName: null, level: 3, amount: 650, transactions: 2 },
    { userId: 100004, userName: 'Meera Nair', rankName: 'Gold', level: 1, amount: 120, transactions: 1 },
  ],
  totalAmount: 770,
  totalUsers: 2,
  transactions: 3,
  page: 1,
  limit: 25,
};

// jsdom has no scrolling; Mantine's combobox scrolls the selected option into view.
Element.prototype.scrollIntoView = () => {};

describe('RevenuePage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('searches the current month by default and shows the cards in INR and the rows', async () => {
    signIn(['reports_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, REVENUE));
    renderPage(<RevenuePage />);
    expect(screen.getByRole('heading', { name: 'Total Revenue' })).toBeTruthy();
    const total = await screen.findByRole('region', { name: 'Total Amount' });
    await within(total).findByText('₹1,23,456.50');
    expect(within(screen.getByRole('region', { name: 'Transactions' })).getByText('42')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Date Range' })).toBeTruthy();
    expect(screen.getByText('Asha Rao')).toBeTruthy();
    expect(screen.getByText('₹999.00')).toBeTruthy();
    for (const header of ['Date & Time', 'Amount', 'User Name']) expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    const { from, to } = currentMonthRange();
    const url = String(fetchMock.mock.calls[0][0]);
    expect(url).toContain(`/api/wallets/adminRevenue?fromDate=${wire(from)}&toDate=${wire(to)}`);
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
  });

  // Issue 15 item 14: the chart skipped days without revenue (and its smoothed line dipped below the data).
  it('charts every day of the range, ₹0 on a day without revenue', () => {
    const search = { from: '2026-02-26', to: '2026-03-02', userName: '' };
    expect(revenueChartDays(search, [{ date: '2026-02-27', amount: 500 }, { date: '2026-03-01', amount: 100 }])).toEqual([
      { date: '2026-02-26', amount: 0 }, { date: '2026-02-27', amount: 500 }, { date: '2026-02-28', amount: 0 },
      { date: '2026-03-01', amount: 100 }, { date: '2026-03-02', amount: 0 },
    ]);
  });

  it('sorts by Amount from its header and keeps search and order in the address', async () => {
    signIn(['reports_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, REVENUE));
    const { router } = renderPage(<RevenuePage />, { url: '/?from=2026-11-01&to=2026-11-30&userName=asha' });
    await screen.findByText('Asha Rao');
    expect(String(fetchMock.mock.calls[0][0])).toContain('fromDate=01-11-2026&toDate=30-11-2026&userName=asha');
    fireEvent.click(screen.getByRole('button', { name: /Amount/ }));
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).endsWith('sort=amount'))).toBe(true));
    await vi.waitFor(() => expect(router.state.location.search).toContain('sort=amount'));
    expect(router.state.location.search).toContain('userName=asha');
  });

  it('disables Search without both dates and says so', async () => {
    signIn(['reports_view']);
    mockFetch(() => jsonResponse(200, REVENUE));
    renderPage(<RevenuePage />);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '' } });
    expect(screen.getByText('Please select both from and to dates')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it.each([
    [400, 'Invalid date format. Please check your date selection.'],
    [500, 'Server error. Please try again later.'],
    [404, 'Failed to load revenue data: Nothing here'],
  ])('maps a %i to the spec message', async (status, text) => {
    signIn(['reports_view']);
    mockFetch(() => jsonResponse(status, { success: false, message: 'Nothing here' }));
    renderPage(<RevenuePage />);
    expect(await screen.findByText(text)).toBeTruthy();
  });
});

describe('RoyaltyIncomePage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the cards and the table grouped per user, with No Rank and the display level', async () => {
    signIn(['reports_view']);
    mockFetch(() => jsonResponse(200, INCOME));
    renderPage(<RoyaltyIncomePage />);
    expect(screen.getByRole('heading', { name: 'Royalty Income' })).toBeTruthy();
    await within(screen.getByRole('region', { name: 'Total Royalty' })).findByText('₹770.00');
    expect(within(screen.getByRole('region', { name: 'Total Users' })).getByText('2')).toBeTruthy();
    for (const header of ['#', 'User Name', 'Rank', 'Royalty Income', 'Transactions']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    }
    expect(screen.getByText('No Rank')).toBeTruthy();
    expect(screen.getByText('Level 3')).toBeTruthy();
    expect(screen.getByText('Gold')).toBeTruthy();
  });

  it('gives a 400 the generic parameters message', async () => {
    signIn(['reports_view']);
    mockFetch(() => jsonResponse(400, { success: false, message: 'bad' }));
    renderPage(<RoyaltyIncomePage />);
    expect(await screen.findByText('Invalid request parameters...')).toBeTruthy();
  });
});

describe('RewardIncomePage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for Daily Payout rewards by default and for the chosen Reward Type', async () => {
    signIn(['reports_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, INCOME));
    renderPage(<RewardIncomePage />);
    await within(screen.getByRole('region', { name: 'Total Rewards' })).findByText('₹770.00');
    expect(String(fetchMock.mock.calls[0][0])).toContain('transactionType=dailyPayout');
    fireEvent.click(screen.getAllByLabelText('Reward Type')[0]);
    fireEvent.click((await screen.findAllByRole('option', { name: 'Referral Bonus', hidden: true })).at(-1)!);
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([u]) => String(u).includes('transactionType=referral_bonus_10_users'))).toBe(true));
  });
});
