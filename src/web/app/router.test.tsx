import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderRoutes, signIn } from '../test-utils';
import { routes } from './router';

// A lazy route's first render in jsdom takes seconds on a loaded machine; the wait ends as soon as it shows.
const LAYOUT_WAIT = { timeout: 15_000 };

function serveAs(user: ReturnType<typeof signIn>) {
  return mockFetch((path) =>
    path === '/users/me'
      ? jsonResponse(200, { success: true, data: user })
      : jsonResponse(200, { success: true, data: { totalUsers: 1, activeUsers: 1, inactiveUsers: 0, membershipUsers: 0 } }),
  );
}

describe('routes and guards', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends a visitor without a token to /signin', async () => {
    const { router } = renderRoutes(routes, '/users');
    expect(await screen.findByRole('heading', { name: 'Admin Portal' }, LAYOUT_WAIT)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signin');
  });

  it('shows the loading screen, then the shell, and "no access" on a route the account may not use', async () => {
    serveAs(signIn(['dashboard_view']));
    renderRoutes(routes, '/users');
    expect(screen.getByText('Loading dashboard...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'No access' }, LAYOUT_WAIT)).toBeTruthy();
    expect(
      screen.getByText('Your account does not have permission to view this page. Ask an administrator to give your role access.'),
    ).toBeTruthy();
    expect(screen.getByText('Asha Admin')).toBeTruthy();
    expect(screen.getByText('Administrator')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Search members' }).getAttribute('placeholder')).toBe('Search members...');
  });

  it('shows a permitted page, and redirects unknown paths to /', async () => {
    serveAs(signIn(['audit_view', 'dashboard_view']));
    const { router } = renderRoutes(routes, '/audit');
    expect(await screen.findByRole('heading', { name: 'Audit Log' }, LAYOUT_WAIT)).toBeTruthy();
    await act(() => router.navigate('/no/such/page'));
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('region', { name: 'Total Users' }, LAYOUT_WAIT)).toBeTruthy();
  });

  it('serves the test duplicates without the layout shell', async () => {
    serveAs(signIn([]));
    renderRoutes(routes, '/test/api');
    expect(await screen.findByRole('heading', { name: 'API Connection Test' }, LAYOUT_WAIT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
  });

  it('issue 15 item 11: /test/users says "No access" without the users permission, like /users', async () => {
    serveAs(signIn(['dashboard_view']));
    renderRoutes(routes, '/test/users');
    expect(await screen.findByRole('heading', { name: 'No access' }, LAYOUT_WAIT)).toBeTruthy();
    expect(screen.queryByText('Failed to load users. Using mock data instead.')).toBeNull();
  });

  it('signs out when another tab removes the token', async () => {
    serveAs(signIn(['dashboard_view']));
    const { router } = renderRoutes(routes, '/');
    expect(await screen.findByRole('button', { name: 'Logout' }, LAYOUT_WAIT)).toBeTruthy();
    act(() => {
      localStorage.removeItem('authToken');
      window.dispatchEvent(new StorageEvent('storage', { key: 'authToken' }));
    });
    expect(await screen.findByRole('heading', { name: 'Admin Portal' }, LAYOUT_WAIT)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signin');
  });

  it('clears the session and returns to /signin when the server answers 401', async () => {
    signIn(['dashboard_view']);
    mockFetch(() => jsonResponse(401, { success: false, message: 'Session expired' }));
    const { router } = renderRoutes(routes, '/');
    expect(await screen.findByRole('heading', { name: 'Admin Portal' }, LAYOUT_WAIT)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signin');
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('userToken')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });
});
