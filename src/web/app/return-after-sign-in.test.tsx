import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderRoutes, TEST_USER } from '../test-utils';
import { routes } from './router';

const WAIT = { timeout: 15_000 };

function signInWith(user: typeof TEST_USER) {
  return mockFetch((path) =>
    path === '/Adminlogin'
      ? jsonResponse(200, { success: true, message: 'Login successful', data: { token: 'tok-1', user } })
      : path === '/users/me'
        ? jsonResponse(200, { success: true, data: user })
        : jsonResponse(200, { success: true, data: [], total: 0, page: 1, limit: 25 }),
  );
}

async function fillAndSubmit() {
  fireEvent.change(await screen.findByLabelText(/^Email/, {}, WAIT), { target: { value: 'admin@example.com' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'right-password' } });
  fireEvent.click(screen.getByRole('button', { name: 'Access Portal' }));
}

describe('a link opened while signed out (issue 24)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('returns to the link, path and query, after sign-in', async () => {
    signInWith({ ...TEST_USER, permissions: ['audit_view', 'dashboard_view'] });
    const { router } = renderRoutes(routes, '/audit?action=login&page=2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'), WAIT);
    expect(router.state.location.search).toBe(''); // the address stays /signin
    await fillAndSubmit();
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/audit?action=login&page=2'), WAIT);
  });

  it('returns to it after the two-factor set-up the role demands', async () => {
    const fetchMock = signInWith({ ...TEST_USER, permissions: [], twoFactorSetupRequired: true });
    const { router } = renderRoutes(routes, '/audit?action=login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'), WAIT);
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/two-factor-setup'), WAIT);
    expect(router.state.location.state).toEqual({ from: '/audit?action=login' });
    expect(fetchMock).toHaveBeenCalled();
  });

  it('a sign-in with no link (or an unsafe one in the state) goes to the dashboard', async () => {
    signInWith({ ...TEST_USER, permissions: ['dashboard_view'] });
    const { router } = renderRoutes(routes, '/signin');
    await router.navigate('/signin', { replace: true, state: { from: '//evil.com' } });
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), WAIT);
  });
});
