import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { incomeResponse, revenueResponse } from '../../../contract/reports';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import { normalizeIncome, normalizeRevenue } from './reports.api';
import RevenuePage from './revenue-page';
import RewardIncomePage from './reward-income-page';

/** Issue 24 item 7: the spec's own Revenue and Reward Income shapes, refused before with "Invalid data format from API". */
const SPEC_REVENUE = {
  data: [
    { dateTime: '2026-11-03T10:00:00Z', amount: 500, userName: 'Asha' },
    { dateTime: '2026-11-04T10:00:00Z', amount: '250.5', userName: 'Bina' },
  ],
};
const SPEC_REWARDS = {
  data: [
    { receivers: [{ userId: 1, userName: 'Asha', amount: 10, rankName: 'Gold', dateTime: '2026-11-03T10:00:00Z' }, { userName: 'Bina', amount: 5 }] },
    { receivers: [{ userId: 1, userName: 'Asha', amount: 2.5, rankName: 'Gold', dateTime: '2026-11-04T10:00:00Z' }] },
  ],
};

describe('the reports accept the spec\u2019s shapes', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('parses and fills in the spec Revenue shape: totals, count, order and page', () => {
    const view = normalizeRevenue(revenueResponse.parse(SPEC_REVENUE), 1, '-amount');
    expect(view).toMatchObject({ totalAmount: 750.5, count: 2, daily: [] });
    expect(view.data.map((r) => [r.userName, r.amount])).toEqual([['Asha', 500], ['Bina', 250.5]]);
    expect(normalizeRevenue(revenueResponse.parse(SPEC_REVENUE), 1, 'userName').data.map((r) => r.userName)).toEqual(['Asha', 'Bina']);
  });

  it('parses the spec Reward Income shape and groups its receivers per user', () => {
    const view = normalizeIncome(incomeResponse.parse(SPEC_REWARDS), 1, '-amount');
    expect(view).toMatchObject({ totalAmount: 17.5, totalUsers: 2, transactions: 3, reversals: [] });
    expect(view.users.map((u) => [u.userName, u.amount, u.transactions, u.rankName])).toEqual([['Asha', 12.5, 2, 'Gold'], ['Bina', 5, 1, null]]);
  });

  it('shows the spec shapes on the Revenue and Reward Income screens', async () => {
    signIn(['reports_view']);
    mockFetch((path) => jsonResponse(200, path.startsWith('/wallets/adminRevenue') ? SPEC_REVENUE : SPEC_REWARDS));
    const revenue = renderPage(<RevenuePage />);
    await within(screen.getByRole('region', { name: 'Total Amount' })).findByText('₹750.50');
    expect(screen.getByText('Bina')).toBeTruthy();
    expect(screen.queryByText(/Invalid data format/)).toBeNull();
    revenue.unmount();
    renderPage(<RewardIncomePage />);
    await within(screen.getByRole('region', { name: 'Total Rewards' })).findByText('₹17.50');
    expect(screen.getByText('Asha')).toBeTruthy();
  });

  it('shows a reversal as its own negative row under its member', async () => {
    signIn(['reports_view']);
    mockFetch(() => jsonResponse(200, {
      success: true, data: [], page: 1, limit: 25, totalAmount: 9.25, totalUsers: 2, transactions: 2,
      users: [
        { userId: 1, userName: 'Pooja', rankName: null, level: 1, amount: 9.25, transactions: 1 },
        { userId: 2, userName: 'Ravi', rankName: null, level: 1, amount: 9.25, transactions: 1 },
      ],
      reversals: [{ userId: 1, userName: 'Pooja', amount: -9.25, label: 'Reversal of run 12' }],
    }));
    renderPage(<RewardIncomePage />);
    const label = await screen.findByText('Reversal of run 12');
    const row = label.closest('tr')!;
    expect(within(row).getByText('-₹9.25')).toBeTruthy();
    expect(screen.queryByText('₹0.00')).toBeNull();
  });

  it('prints a report with the print stylesheet, filters and buttons left out', async () => {
    signIn(['reports_view']);
    mockFetch(() => jsonResponse(200, SPEC_REWARDS));
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderPage(<RewardIncomePage />);
    await within(screen.getByRole('region', { name: 'Total Rewards' })).findByText('₹17.50');
    const button = screen.getByRole('button', { name: 'Print report' });
    expect(button.closest('.no-print')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Search' }).closest('.no-print')).toBeTruthy();
    button.click();
    await vi.waitFor(() => expect(print).toHaveBeenCalledTimes(1));
  });
});
