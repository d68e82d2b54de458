import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import { PLANS } from '../income/fake-plans';
import MembershipListPage from './membership-list-page';
import MembershipPage from './membership-page';
import MembershipTestPage from './membership-test-page';

const member = (userId: number, fullName: string) => ({
  _id: String(userId), id: userId, userId, fullName, name: fullName, email: `${userId}@test.local`, phone: '9800000000', status: true,
  amount: 999, currentAmount: 1234.5, dateTime: '2026-03-10T06:30:00.000Z',
});
const MEMBERS = { success: true, data: [member(101, 'Asha Rao')], total: 1, page: 1, limit: 25 };

// Issue 16: what the engine did, and Activate Membership (the form is the income feature's).
const engineMember = (userId: number, fullName: string, over: Record<string, unknown>) => ({ ...member(userId, fullName), ...over });
const ENGINE_MEMBERS = {
  success: true,
  data: [
    engineMember(101, 'Asha Rao', { planName: 'Gold Plan', membershipStatus: 'active', earned: 450, dailyAmount: 15 }),
    engineMember(102, 'Old Timer', { planName: null, membershipStatus: 'legacy', earned: 0, dailyAmount: 0 }),
  ],
  total: 2, page: 1, limit: 25,
};
const USERS = {
  success: true, total: 1, page: 1, limit: 20,
  users: [{
    _id: '103', userId: 103, fullName: 'Vikram Sen', email: 'v@test.local', phone: '9800000003', address: null, companyName: null, role: 'User',
    status: true, lastLogin: 'Never', referredBy: null, referrerName: null, rank: null, rankId: null, level: 1, dob: null, whatsapp: null,
    image: null, state: null, referralCode: 'R103', createdAt: '2026-04-01T06:30:00.000Z',
  }],
};
const AWAITING = {
  success: true, message: 'Above the approval threshold of ₹10,000.00: this request awaits approval by a second operator',
  data: { approvalId: 9, status: 'pending' },
};

async function pickPlan(dialog: HTMLElement, name: RegExp) {
  fireEvent.click(within(dialog).getAllByLabelText(/^Plan/)[0]);
  fireEvent.click((await screen.findAllByRole('option', { name, hidden: true })).at(-1)!);
}

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

  it('exports the filtered range in its order as CSV (issue 24)', async () => {
    signIn(['membership_view']);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
    const fetchMock = mockFetch((path) => (path.startsWith('/users/membership.csv')
      ? new Response('User ID\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } })
      : jsonResponse(200, MEMBERS)));
    renderPage(<MembershipPage />, { url: '/?from=2026-03-01&to=2026-03-31&sort=-amount' });
    await screen.findByText('Asha Rao');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(fetchMock.mock.calls.map((c) => String(c[0])))
      .toContain('/api/users/membership.csv?fromDate=01-03-2026&toDate=31-03-2026&sort=-amount'));
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

  it('sorts by Name and by Current Amount; the order survives a reload (issue 24)', async () => {
    signIn(['membership_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, MEMBERS));
    const { router } = renderPage(<MembershipPage />);
    await screen.findByText('Asha Rao');
    fireEvent.click(screen.getByRole('button', { name: /^Name/ }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?sort=name'));
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/users/membership?page=1&limit=25&sort=name');
    fireEvent.click(screen.getByRole('button', { name: /Current Amount/ }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?sort=currentAmount'));
    expect(await screen.findByText('₹1,234.50')).toBeTruthy();
    cleanup();
    const reloaded = mockFetch(() => jsonResponse(200, MEMBERS));
    renderPage(<MembershipPage />, { url: '/?sort=-currentAmount' });
    await screen.findByText('Asha Rao');
    expect(reloaded.mock.calls.map(([u]) => String(u))).toContain('/api/users/membership?page=1&limit=25&sort=-currentAmount');
    expect(screen.getByRole('columnheader', { name: /Current Amount/ }).getAttribute('aria-sort')).toBe('descending');
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

  it('shows the current amount in rupees, never dollars, and the amount history with its transaction count (issue 24)', async () => {
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
    expect(screen.getByText('₹1,234.50')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'View Amount History of Asha Rao' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Payment History (2 transactions)')).toBeTruthy();
    expect(within(dialog).getByText('₹1,234.50')).toBeTruthy();
    expect(within(dialog).getByText('+₹500.00')).toBeTruthy();
    expect(within(dialog).getByText('-₹100.00')).toBeTruthy();
    expect(document.body.textContent).not.toContain('$');
  });

  it('reads the spec\u2019s other shape: the rows under `transactions`, type or transactionType, createdAt or dateTime (issue 24 item 7)', async () => {
    signIn(['membership_view']);
    mockFetch((path) => {
      if (path.startsWith('/users/walletHistory')) {
        return jsonResponse(200, {
          user: { userId: '101', fullName: 'Asha Rao' }, currentAmount: 15335,
          transactions: [
            { id: 'a1', userId: 101, amount: 15000, transactionType: 'credit', description: 'Level income', createdAt: '2026-03-10T06:30:00.000Z' },
            { id: 'a2', userId: 101, amount: 335, type: 'credit', dateTime: '2026-03-11T06:30:00.000Z', transactionId: 'T9' },
            { id: 'a3', userId: 101, amount: -20, transactionType: 'wallet_withdrawal', createdAt: '2026-03-12T06:30:00.000Z' },
          ],
        });
      }
      return jsonResponse(200, MEMBERS);
    });
    renderPage(<MembershipListPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'View Amount History of Asha Rao' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Payment History (3 transactions)')).toBeTruthy();
    expect(within(dialog).queryByText(/Invalid data format from API/)).toBeNull();
    expect(within(dialog).getByText('₹15,335.00')).toBeTruthy();
    expect(within(dialog).getByText('+₹15,000.00')).toBeTruthy();
    expect(within(dialog).getByText('+₹335.00')).toBeTruthy();
    // No direction given: the sign says debit; the kind in words.
    expect(within(dialog).getByText('-₹20.00')).toBeTruthy();
    expect(within(dialog).getByText('Wallet Withdrawal')).toBeTruthy();
    expect(within(dialog).getByText('Level income')).toBeTruthy();
  });

  it('sorts by Name and by Current Amount from the headers, kept in the address, and exports in that order (issue 24)', async () => {
    signIn(['membership_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, MEMBERS));
    const { router } = renderPage(<MembershipListPage />, { url: '/?sort=-name' });
    await screen.findByText('Asha Rao');
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/users/membership?page=1&limit=25&sort=-name');
    expect(screen.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: /Current Amount/ }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?sort=currentAmount'));
    await vi.waitFor(() => expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/users/membership?page=1&limit=25&sort=currentAmount'));
  });

  it('exports the list in its order as CSV (issue 24)', async () => {
    signIn(['membership_view']);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
    const fetchMock = mockFetch((path) => (path.startsWith('/users/membership.csv')
      ? new Response('User ID\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } })
      : jsonResponse(200, MEMBERS)));
    renderPage(<MembershipListPage />, { url: '/?sort=amount' });
    await screen.findByText('Asha Rao');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(fetchMock.mock.calls.map((c) => String(c[0]))).toContain('/api/users/membership.csv?sort=amount'));
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

describe('Activate Membership on the Membership screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows Plan and Membership columns, and no Activate button without membership_manage', async () => {
    signIn(['membership_view']);
    mockFetch(() => jsonResponse(200, ENGINE_MEMBERS));
    renderPage(<MembershipPage />);
    const row = (await screen.findByText('Asha Rao')).closest('tr')!;
    expect(screen.getByRole('columnheader', { name: 'Plan' })).toBeTruthy();
    expect(within(row).getByText('Gold Plan')).toBeTruthy();
    expect(within(row).getByText('Earning')).toBeTruthy();
    expect(within(screen.getByText('Old Timer').closest('tr')!).getByText('Legacy')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Activate Membership' })).toBeNull();
  });

  it('checks the form before sending, lists only plans on sale, and shows a 202 as awaiting approval', async () => {
    signIn(['membership_view', 'membership_manage']);
    const posts: RequestInit[] = [];
    mockFetch((path, init) => {
      if (path === '/income/plans') return jsonResponse(200, PLANS);
      if (path.startsWith('/users/getAllusers')) return jsonResponse(200, USERS);
      if (path === '/income/memberships' && init.method === 'POST') {
        posts.push(init);
        return jsonResponse(202, AWAITING);
      }
      return jsonResponse(200, ENGINE_MEMBERS);
    });
    renderPage(<MembershipPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Activate Membership' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate Membership' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Activate' }));
    expect(await within(dialog).findByText('Please select a member and a plan')).toBeTruthy();

    fireEvent.click(within(dialog).getAllByLabelText(/^Member/)[0]);
    fireEvent.click((await screen.findAllByRole('option', { name: /Vikram Sen/, hidden: true })).at(-1)!);
    fireEvent.click(within(dialog).getAllByLabelText(/^Plan/)[0]);
    expect(await screen.findAllByRole('option', { name: 'Gold Plan · ₹1,000.00 · ₹15.00 per day', hidden: true })).toBeTruthy();
    expect(screen.queryByRole('option', { name: /Old Plan/, hidden: true })).toBeNull();
    await pickPlan(dialog, /Gold Plan/);
    fireEvent.click(within(dialog).getByLabelText(/Paid outside/));
    fireEvent.change(within(dialog).getByLabelText(/^Method/), { target: { value: 'UPI' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Activate' }));
    expect(await within(dialog).findByText('A payment made outside needs its method and reference')).toBeTruthy();
    expect(posts).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/^Reference/), { target: { value: 'UTR 4471' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText(AWAITING.message)).toBeTruthy();
    expect(screen.getByText('Awaiting approval')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Activate Membership' })).toBeNull();
    expect(JSON.parse(String(posts[0].body))).toEqual({ userId: 103, planId: 1, paidVia: 'outside', method: 'UPI', reference: 'UTR 4471' });
    expect(new Headers(posts[0].headers).get('Idempotency-Key')).toBeTruthy();
  });
});
