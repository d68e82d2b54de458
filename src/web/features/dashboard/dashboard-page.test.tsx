import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import DashboardPage from './dashboard-page';

const STATS = { totalUsers: 123456, activeUsers: 100000, inactiveUsers: 23456, membershipUsers: 4321 };

describe('DashboardPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows skeletons, then the four stats in en-IN format with their fixed change labels', async () => {
    signIn();
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true, data: STATS }));
    renderPage(<DashboardPage />);
    expect(screen.getByLabelText('Loading Total Users')).toBeTruthy();

    const total = await screen.findByRole('region', { name: 'Total Users' });
    await within(total).findByText('1,23,456');
    expect(within(total).getByText('+12%')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Active Users' })).getByText('1,00,000')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Active Users' })).getByText('+8%')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Inactive Users' })).getByText('23,456')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Inactive Users' })).getByText('-3%')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Membership Users' })).getByText('4,321')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Membership Users' })).getByText('+15%')).toBeTruthy();
    expect(screen.queryByText('Sample data')).toBeNull();
    const [url, init] = fetchMock.mock.calls.find(([input]) => String(input).includes('getAllUser'))!;
    expect(url).toBe('/api/users/getAllUser');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer test-token');
  });

  it('shows the failure banner with badged fallback figures, and retries', async () => {
    signIn();
    let fail = true;
    mockFetch(() => (fail ? jsonResponse(500, { success: false, message: 'Database down' }) : jsonResponse(200, { success: true, data: STATS })));
    renderPage(<DashboardPage />);

    expect(await screen.findByText('Error: Failed to load dashboard data')).toBeTruthy();
    expect(screen.getByText('Using fallback data. The displayed statistics may not be accurate.')).toBeTruthy();
    expect(screen.getAllByText('Sample data')).toHaveLength(4);

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry Loading Data' }));
    expect(await screen.findByText('1,23,456')).toBeTruthy();
    expect(screen.queryByText('Error: Failed to load dashboard data')).toBeNull();
    expect(screen.queryByText('Sample data')).toBeNull();
  });

  it('treats an answer of the wrong shape as a failure', async () => {
    signIn();
    mockFetch(() => jsonResponse(200, { success: true, data: { users: [] } }));
    renderPage(<DashboardPage />);
    expect(await screen.findByText('Error: Failed to load dashboard data')).toBeTruthy();
  });

  it('draws the 30-day charts from /dashboard/charts with their totals', async () => {
    signIn();
    const days = Array.from({ length: 30 }, (_, i) => ({
      date: `2026-11-${String(i + 1).padStart(2, '0')}`, newMembers: 2, revenue: 999.5, payoutsSuccess: 3, payoutsFailure: 1,
    }));
    mockFetch((path) =>
      path.startsWith('/dashboard/charts')
        ? jsonResponse(200, { success: true, data: { days } })
        : jsonResponse(200, { success: true, data: STATS }),
    );
    renderPage(<DashboardPage />);
    const members = await screen.findByRole('region', { name: 'New members per day' });
    expect(within(members).getByText('60 in the last 30 days')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Revenue per day' })).getByText('₹29,985.00 in membership fees')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Payouts: success vs failure' })).getByText('90 successful, 30 failed')).toBeTruthy();
  });

  it('issue 24: draws the charts only once their grid is on screen, a task after the frame that shows it', async () => {
    signIn();
    const observed: ResizeObserverCallback[] = [];
    vi.stubGlobal('ResizeObserver', class {
      constructor(cb: ResizeObserverCallback) {
        observed.push(cb);
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    });
    const days = Array.from({ length: 30 }, (_, i) => ({
      date: `2026-11-${String(i + 1).padStart(2, '0')}`, newMembers: 2, revenue: 999.5, payoutsSuccess: 3, payoutsFailure: 1,
    }));
    mockFetch((path) =>
      path.startsWith('/dashboard/charts') ? jsonResponse(200, { success: true, data: { days } }) : jsonResponse(200, { success: true, data: STATS }),
    );
    const { container } = renderPage(<DashboardPage />);
    await screen.findByText('60 in the last 30 days');
    // Hidden behind 'Loading dashboard...' (no width): the summaries are there, the charts are not drawn.
    const drawn = () => container.querySelectorAll('.recharts-responsive-container').length;
    expect(drawn()).toBe(0);
    act(() => {
      for (const cb of observed) cb([{ contentRect: { width: 0 } } as ResizeObserverEntry], {} as ResizeObserver);
    });
    expect(drawn()).toBe(0);
    // Shown: drawn in the next task.
    act(() => {
      for (const cb of observed) cb([{ contentRect: { width: 900 } } as ResizeObserverEntry], {} as ResizeObserver);
    });
    expect(drawn()).toBe(0);
    await waitFor(() => expect(drawn()).toBe(3));
  });
});
