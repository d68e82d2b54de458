import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useListState } from './use-url-state';

const DEFAULTS = { user: '', level: '' };
let controls: ReturnType<typeof useListState<typeof DEFAULTS>>;

function List() {
  controls = useListState(DEFAULTS);
  return <p data-testid="state">{JSON.stringify({ ...controls.filters, page: controls.page })}</p>;
}

const shown = () => JSON.parse(screen.getByTestId('state').textContent!);

function open(...entries: string[]) {
  const router = createMemoryRouter([{ path: '/list', element: <List /> }, { path: '/other', element: <p>Other</p> }], {
    initialEntries: entries,
    initialIndex: entries.length - 1,
  });
  render(<RouterProvider router={router} />);
  return router;
}

describe('useListState: filters and page kept in the address', () => {
  it('opens with the filters and page of the address', () => {
    open('/list?level=3&page=2');
    expect(shown()).toEqual({ user: '', level: '3', page: 2 });
  });

  it('builds each change on the one before, even before the router has committed the first, and mirrors the result', async () => {
    const router = open('/list?page=4');
    act(() => {
      controls.setFilters({ user: '77' });
      controls.setFilters({ level: '2' });
      controls.setFilters({ user: '' });
    });
    expect(shown()).toEqual({ user: '', level: '2', page: 1 });
    await waitFor(() => expect(router.state.location.search).toBe('?level=2'));
    // Replaced, not pushed: Back does not undo a filter.
    expect(router.state.historyAction).toBe('REPLACE');
    act(() => controls.setPage(3));
    await waitFor(() => expect(router.state.location.search).toBe('?level=2&page=3'));
    expect(shown()).toEqual({ user: '', level: '2', page: 3 });
  });

  it('takes the filters of a navigation the operator makes (a link, Back, Forward)', async () => {
    const router = open('/other', '/list?level=5');
    act(() => controls.setFilters({ user: '9' }));
    await waitFor(() => expect(router.state.location.search).toBe('?level=5&user=9'));

    await act(() => router.navigate('/list?user=12'));
    await waitFor(() => expect(shown()).toEqual({ user: '12', level: '', page: 1 }));

    await act(() => router.navigate(-1));
    await waitFor(() => expect(shown()).toEqual({ user: '9', level: '5', page: 1 }));
    expect(router.state.location.search).toBe('?level=5&user=9');

    await act(() => router.navigate(1));
    await waitFor(() => expect(shown()).toEqual({ user: '12', level: '', page: 1 }));
  });
});
