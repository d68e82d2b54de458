import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import { PATHS } from '../../lib/paths';
import { NAV_ITEMS, ROUTE_PERMISSIONS, visibleNavItems } from '../paths';
import { pendingCountQuery } from '../../features/approvals/approvals.api';
import { Sidebar } from './sidebar';

describe('route permissions and the sidebar', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the sidebar in spec order, each entry with the permission of its route', () => {
    expect(NAV_ITEMS.map((item) => `${item.label} ${item.path}`)).toEqual([
      'Dashboard /',
      'Users /users',
      'Services /services',
      'Revenue /revenue',
      'Royalty Income /royalty-income',
      'Reward Income /reward-income',
      'Daily Payout /daily-payout',
      'User Wallet /wallet',
      'Rank /rank',
      'Bank /bank',
      'Membership /membership',
      'Approvals /approvals',
      'Income Runs /income/runs',
      'Membership Plans /income/plans',
      'Income Settings /income/settings',
      'Bank Transfers /bank-transfers',
      'Books /books',
      'TDS Report /reports/tds',
      'Monthly Statement /reports/monthly-statement',
      'Permissions /permissions',
      'Roles /roles',
      'Role Permissions /role-permissions',
      'Staff /staff',
      'Audit Log /audit',
    ]);
    expect(ROUTE_PERMISSIONS[PATHS.staff]).toBe('staff_manage');
    expect(ROUTE_PERMISSIONS[PATHS.approvals]).toBe('money_approve');
    expect(ROUTE_PERMISSIONS[PATHS.dashboard]).toBe('dashboard_view');
    expect(ROUTE_PERMISSIONS[PATHS.bank]).toBe('banks_view');
    expect(ROUTE_PERMISSIONS[PATHS.rolePermissions]).toBe('roles_view');
    expect(ROUTE_PERMISSIONS[PATHS.dailyPayout]).toBe('payouts_view');
    expect(ROUTE_PERMISSIONS[PATHS.runs]).toBe('payouts_view');
    expect(ROUTE_PERMISSIONS[PATHS.plans]).toBe('membership_view');
    expect(ROUTE_PERMISSIONS[PATHS.books]).toBe('books_view');
    expect(ROUTE_PERMISSIONS[PATHS.tdsReport]).toBe('reports_view');
  });

  it('keeps only the entries whose permission the account holds', () => {
    expect(visibleNavItems([]).map((item) => item.label)).toEqual([]);
    expect(visibleNavItems(['reports_view', 'wallet_view']).map((item) => item.label)).toEqual([
      'Revenue',
      'Royalty Income',
      'Reward Income',
      'User Wallet',
      // Issue 24: an account that cannot approve follows its own requests.
      'My requests',
      // Issue 25: tax on what is paid.
      'TDS Report',
      'Monthly Statement',
    ]);
    expect(visibleNavItems(['money_approve']).map((item) => item.label)).toEqual(['Approvals']);
  });

  it('renders only the permitted links, with the access-control group', async () => {
    const user = signIn(['users_view', 'roles_view']);
    mockFetch(() => jsonResponse(200, { success: true, data: user }));
    renderPage(<Sidebar mini={false} onNavigate={() => {}} />, { path: '/users' });

    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const links = within(nav).getAllByRole('link').map((link) => link.textContent);
    expect(links).toEqual(['Users', 'My requests', 'Roles', 'Role Permissions']);
    expect(within(nav).getByText('Access control')).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe('page');
  });

  it('follows fresh permissions from /users/me', async () => {
    const user = signIn(['users_view']);
    mockFetch(() => jsonResponse(200, { success: true, data: { ...user, permissions: ['dashboard_view'] } }));
    renderPage(<Sidebar mini={false} onNavigate={() => {}} />);
    expect(await screen.findByRole('link', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Users' })).toBeNull();
  });

  it('issue 24: a badge with the requests waiting for this checker, kept fresh; none without money_approve', async () => {
    const user = signIn(['money_approve', 'users_view']);
    let waiting = 3;
    const fetchMock = mockFetch((path) =>
      path === '/approvals/pending-count'
        ? jsonResponse(200, { success: true, data: { count: waiting } })
        : jsonResponse(200, { success: true, data: user }));
    const { queryClient } = renderPage(<Sidebar mini={false} onNavigate={() => {}} />, { path: '/users' });
    const link = await screen.findByRole('link', { name: 'Approvals, 3 waiting for your decision' });
    expect(within(link).getByText('3')).toBeTruthy();
    expect(pendingCountQuery().refetchInterval).toBe(60_000);
    // A decision refreshes the approvals group, and the badge with it.
    waiting = 0;
    await act(() => queryClient.invalidateQueries({ queryKey: ['approvals'] }));
    expect(await screen.findByRole('link', { name: 'Approvals' })).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === '/api/approvals/pending-count')).toHaveLength(2);
  });

  it('issue 24: asks for no count without money_approve', async () => {
    const user = signIn(['wallet_manage']);
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true, data: user }));
    renderPage(<Sidebar mini={false} onNavigate={() => {}} />, { path: '/users' });
    expect(await screen.findByRole('link', { name: 'My requests' })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('pending-count'))).toBe(false);
  });
});
