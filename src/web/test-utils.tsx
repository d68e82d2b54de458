import type { ReactElement } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { expect, vi } from 'vitest';
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

/**
 * Renders `page` with `data` answering every JSON read and a CSV every .csv, clicks Download CSV
 * once it is enabled, and answers the .csv URLs fetched (issue 24: each list's export).
 */
export async function downloadCsvFrom(page: ReactElement, data: object, url?: string): Promise<string[]> {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
  const fetchMock = mockFetch((path) =>
    path.includes('.csv') ? new Response('ID\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }) : jsonResponse(200, { success: true, ...data }),
  );
  renderPage(page, url ? { url } : {});
  const button = await screen.findByRole('button', { name: 'Download CSV' });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(button);
  await waitFor(() => expect(fetchMock.mock.calls.some((c) => String(c[0]).includes('.csv'))).toBe(true));
  return fetchMock.mock.calls.map((c: unknown[]) => String(c[0])).filter((u: string) => u.includes('.csv'));
}
