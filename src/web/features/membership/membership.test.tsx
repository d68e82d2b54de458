import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import MembershipListPage from './membership-list-page';
import MembershipPage from './membership-page';
import MembershipTestPage from './membership-test-page';

const member = (userId: number, fullName: string) => ({
  _id: String(userId), id: userId, userId, fullName, name: fullName, email: `${userId}@test.local`, phone: '9800000000', status: true,
  amount: 999, currentAmount: 1234.5, dateTime: '2026-03-10T06:30:00.000Z',
});
const MEMBERS = { success: true, data: [member(101, 'Asha Rao')], total: 1, page: 1, limit: 25 };

describe('Membership version B (/membership)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists User ID, Name and Date Time, filters by both dates sent as dd-mm-yyyy, and clears', async () => {
    signIn(['membership_view']);
    const fetchMock = mockFetch((path) => (path.includes('fromDate') ? jsonResponse(200, { ...MEMBERS, data: [], total: 0 }) : jsonResponse(200, MEMBERS)));
    renderPage(<MembershipPage />);
    await screen.findByText('Asha Rao');
    for (const h of ['User ID', 'Name', 'Date Time']) expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('Please select both from and to dates')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('No users found')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/users/membership?page=1&limit=25&fromDate=01-03-2026&toDate=31-03-2026');
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('Asha Rao')).toBeTruthy();
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('');
  });

  // Issue 15 item 12: spec §7 "array, or data, or members", each a member view.
  it.each([
    ['a bare array', (rows: unknown[]) => rows],
    ['under members', (rows: unknown[]) => ({ success: true, members: rows })],
  ])('lists members sent as %s', async (_shape, answer) => {
    signIn(['membership_view']);
    const view = { userId: 102, _id: 'abc', name: 'Vikram Sen', email: 'v@test.local', phone: '9800000001', status: true, amount: 999 };
    mockFetch(() => jsonResponse(200, answer([view, member(101, 'Asha Rao')])));
    renderPage(<MembershipPage />);
    expect(await screen.findByText('Vikram Sen')).toBeTruthy();
    expect(screen.getByText('Asha Rao')).toBeTruthy();
    expect(screen.queryByText('Failed to fetch members. Please try again later.')).toBeNull();
  });

  it('sorts by a column header and keeps the order in the address', async () => {
    signIn(['membership_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, MEMBERS));
    const { router } = renderPage(<MembershipPage />);
    await screen.findByText('Asha Rao');
    fireEvent.click(screen.getByRole('button', { name: /User ID/ }));
    await vi.waitFor(() => expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/users/membership?page=1&limit=25&sort=userId'));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?sort=userId'));
  });

  it('shows the failure text', async () => {
    signIn(['membership_view']);
    mockFetch(() => jsonResponse(500, { success: false, message: 'x' }));
    renderPage(<MembershipPage />);
    expect(await screen.findByText('Failed to fetch members. Please try again later.')).toBeTruthy();
  });
});

describe('Membership version A (/test/membership)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the current amount in USD and the amount history with its transaction count', async () => {
    signIn(['membership_view']);
    mockFetch((path) => {
      if (path.startsWith('/users/walletHistory')) {
        expect(path).toBe('/users/walletHistory?transactionType=dailyPayout&userId=101');
        return jsonResponse(200, {
          success: true, user: { userId: 101, fullName: 'Asha Rao', email: '101@test.local', phone: '9800000000', status: true }, currentAmount: 1234.5,
          history: [
            { id: 1, userId: 101, amount: 500, type: 'credit', transactionType: 'dailyPayout', description: 'Daily payout', date: '2026-03-10T06:30:00.000Z', transactionId: 1 },
            { id: 2, userId: 101, amount: 100, type: 'debit', transactionType: 'wallet_withdrawal', description: 'Withdrawal', date: '2026-03-11T06:30:00.000Z', transactionId: 2 },
          ],
          total: 2, page: 1, limit: 25,
        });
      }
      return jsonResponse(200, MEMBERS);
    });
    renderPage(<MembershipListPage />);
    await screen.findByText('Asha Rao');
    expect(screen.getByText('$1,234.50')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'View Amount History of Asha Rao' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Payment History (2 transactions)')).toBeTruthy();
    expect(within(dialog).getByText('$1,234.50')).toBeTruthy();
    expect(within(dialog).getByText('+$500.00')).toBeTruthy();
    expect(within(dialog).getByText('-$100.00')).toBeTruthy();
  });

  it('shows the spec error text when the amount history cannot be loaded', async () => {
    signIn(['membership_view']);
    mockFetch((path) => (path.startsWith('/users/walletHistory') ? jsonResponse(404, { success: false, message: 'Not found' }) : jsonResponse(200, MEMBERS)));
    renderPage(<MembershipListPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'View Amount History of Asha Rao' }));
    expect(await screen.findByText('Failed to load user amount history: Not found')).toBeTruthy();
  });

  it('shows the members failure text', async () => {
    signIn(['membership_view']);
    mockFetch(() => jsonResponse(500, { success: false, message: 'x' }));
    renderPage(<MembershipListPage />);
    expect(await screen.findByText('Failed to load members. Please try again.')).toBeTruthy();
  });
});

describe('Membership API Test (/test/membership-test)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('calls the members endpoint and shows the raw response', async () => {
    signIn(['membership_view']);
    mockFetch(() => jsonResponse(200, MEMBERS));
    renderPage(<MembershipTestPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Test Members API' }));
    expect((await screen.findByLabelText('Raw response')).textContent).toContain('"fullName": "Asha Rao"');
  });
});
