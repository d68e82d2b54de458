import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { SessionUser } from '../contract/auth';
import { AppProviders } from './app/providers';

export const TEST_USER: SessionUser = {
  _id: 'u1',
  userId: 100001,
  name: 'admin',
  fullName: 'Asha Admin',
  email: 'admin@example.com',
  role: 'Admin',
  permissions: ['dashboard_view'],
  twoFactorEnabled: false,
  twoFactorSetupRequired: false,
};

export function signIn(permissions: string[] = TEST_USER.permissions) {
  const user = { ...TEST_USER, permissions };
  localStorage.setItem('authToken', 'test-token');
  localStorage.setItem('userToken', 'test-token');
  localStorage.setItem('user', JSON.stringify(user));
  return user;
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type Handler = (path: string, init: RequestInit) => Response | Promise<Response>;

/** Replaces global fetch; the handler gets the path without the /api base. */
export function mockFetch(handler: Handler) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) =>
    Promise.resolve(handler(String(input).replace(/^\/api/, ''), init)),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function LocationProbe() {
  return <p data-testid="location">{useLocation().pathname}</p>;
}

function renderRouter(routes: RouteObject[], url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** One page at `path`; any navigation away shows the new location in a probe. */
export function renderPage(element: ReactElement, options: { path?: string; url?: string } = {}) {
  const path = options.path ?? '/';
  return renderRouter([{ path, element }, { path: '*', element: <LocationProbe /> }], options.url ?? path);
}

export function renderRoutes(routes: RouteObject[], url: string) {
  return renderRouter(routes, url);
}
