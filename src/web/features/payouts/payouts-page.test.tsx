import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import PayoutsPage from './payouts-page';

Element.prototype.scrollIntoView = () => {};

const failed = { id: 7, userId: 100005, userName: 'Kiran Shah', amount: 250.5, date: '2026-11-03', status: 'Failure', paidAt: null };
const paid = { id: 8, userId: 100006, userName: 'Leela Das', amount: 100, date: '2026-11-03', status: 'Success', paidAt: '2026-11-03T12:00:00Z' };
const pageOf = (rows: unknown[]) => ({
  success: true, data: rows, total: rows.length, page: 1, limit: 25,
  totals: { count: 1234, amount: 98765.4, successful: 1000, failed: 234 },
  daily: [{ date: '2026-11-03', successful: 1, failed: 1 }],
});

describe('PayoutsPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the four cards, the rows, and Pay Now on Failure rows only', async () => {
    signIn(['payouts_view', 'payouts_pay']);
    mockFetch(() => jsonResponse(200, pageOf([failed, paid])));
    renderPage(<PayoutsPage />);
    expect(screen.getByRole('heading', { name: 'Daily Payout' })).toBeTruthy();
    await within(screen.getByRole('region', { name: 'Total Payouts' })).findByText('1,234');
    expect(within(screen.getByRole('region', { name: 'Total Amount' })).getByText('98765.40')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Successful' })).getByText('1,000')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Failed' })).getByText('234')).toBeTruthy();
    for (const header of ['User Name', 'Amount', 'Date', 'Status']) expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    expect(screen.getByText('250.50')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Pay Now/ })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Clear Filters & Reload' })).toBeTruthy();
  });

  it('asks for at least one date before searching', async () => {
    signIn(['payouts_view']);
    mockFetch(() => jsonResponse(200, pageOf([])));
    renderPage(<PayoutsPage />);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Please select at least one date to search')).toBeTruthy();
  });

  it('pays through Process Payment once for a double click, with one idempotency key, then reloads and confirms', async () => {
    signIn(['payouts_view', 'payouts_pay']);
    let paidNow = false;
    const posts: RequestInit[] = [];
    const fetchMock = mockFetch((path, init) => {
      if (path === '/transferAdmin') {
        posts.push(init);
        paidNow = true;
        return jsonResponse(200, { success: true, message: 'Payment processed successfully', data: {} });
      }
      return jsonResponse(200, pageOf([paidNow ? { ...failed, status: 'Success' } : failed]));
    });
    renderPage(<PayoutsPage />);
    fireEvent.click(await screen.findByRole('button', { name: /^Pay Now/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Process Payment' });
    expect(within(dialog).getByLabelText('Amount')).toHaveProperty('value', '250.5');
    const submit = within(dialog).getByRole('button', { name: 'Process Payment' });
    fireEvent.click(submit);
    fireEvent.click(submit);
    expect(await screen.findByText('Payment processed successfully')).toBeTruthy();
    const keys = new Set(posts.map((init) => new Headers(init.headers).get('Idempotency-Key')));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(String(posts[0].body))).toEqual({ userId: 100005, amount: 250.5, typeIncome: 'dailyPayout', payoutId: 7 });
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: /^Pay Now/ })).toBeNull());
    expect(fetchMock.mock.calls.filter(([u]) => String(u).includes('dailyPayout?')).length).toBeGreaterThan(1);
  });

  it('refuses an empty amount and shows a failed payment with the spec prefix', async () => {
    signIn(['payouts_view', 'payouts_pay']);
    mockFetch((path) => path === '/transferAdmin'
      ? jsonResponse(409, { success: false, message: 'Payout 7 has already been paid' })
      : jsonResponse(200, pageOf([failed])));
    renderPage(<PayoutsPage />);
    fireEvent.click(await screen.findByRole('button', { name: /^Pay Now/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Process Payment' });
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Process Payment' }));
    expect(await within(dialog).findByText('Please enter a valid amount')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '250.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Process Payment' }));
    expect(await within(dialog).findByText('Failed to process payment: Payout 7 has already been paid')).toBeTruthy();
  });

  it('says "Failed to load payouts: …" when loading fails', async () => {
    signIn(['payouts_view']);
    mockFetch(() => jsonResponse(500, { success: false, message: 'Database down' }));
    renderPage(<PayoutsPage />);
    expect(await screen.findByText('Failed to load payouts: Database down')).toBeTruthy();
  });
});
