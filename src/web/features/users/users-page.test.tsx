import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import UsersPage, { prefetch } from './users-page';
import { page, RANKS, selectInput, serve, user } from './users-test-kit';

describe('UsersPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the members with the spec columns, the total and the freshness text', async () => {
    signIn(['users_view']);
    const fetchMock = serve(() => page([user(2, { referredBy: 1, referrerName: 'Asha Rao', level: 2, status: false }), user(1)], 1234));
    renderPage(<UsersPage />);
    expect(screen.getByText('User Management')).toBeTruthy();
    expect(screen.getByText('Manage your system users and their permissions')).toBeTruthy();
    await screen.findByText('Member 2');
    expect(screen.getByText('Total Users: 1,234')).toBeTruthy();
    await screen.findByText('Updated just now');
    for (const h of ['S.No', 'Name', 'Email', 'Phone', 'Referred By', 'Status', 'Level']) expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    const rows = screen.getAllByRole('row');
    expect(within(rows[1]).getByText('Asha Rao')).toBeTruthy();
    expect(within(rows[1]).getByText('Inactive')).toBeTruthy();
    expect(within(rows[2]).getByText('Direct')).toBeTruthy();
    expect(within(rows[2]).getByText('Active')).toBeTruthy();
    expect(within(rows[1]).getByRole('button', { name: 'Downline' })).toBeTruthy();
    const listCall = fetchMock.mock.calls.map(([u]) => String(u)).find((u) => u.includes('getAllusers?page'))!;
    expect(listCall).toBe('/api/users/getAllusers?page=1&limit=25');
  });

  it('pressing the sidebar link asks for the first page and the filters\' choices at once', async () => {
    signIn(['users_view']);
    const fetchMock = serve(() => page([user(1)]));
    prefetch(new QueryClient());
    await waitFor(() => expect(fetchMock.mock.calls.length).toBe(3));
    const asked = fetchMock.mock.calls.map(([u]) => String(u).split('?')[0]).sort();
    expect(asked).toEqual(['/api/ranks/getAllRank', '/api/users/getAllusers', '/api/users/levels']);
  });

  it('a row action names itself in a tooltip while pointed at, and only then', async () => {
    signIn(['users_view', 'users_manage']);
    serve(() => page(Array.from({ length: 25 }, (_, i) => user(i + 1)), 25));
    renderPage(<UsersPage />);
    await screen.findByText('Member 25');
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.mouseEnter(screen.getByRole('button', { name: 'Edit Member 3' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Edit');
    fireEvent.mouseLeave(screen.getByRole('button', { name: 'Edit Member 3' }));
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('shows "No users available" with an add button when there are no members at all', async () => {
    signIn(['users_view']);
    serve(() => page([]));
    renderPage(<UsersPage />);
    expect(await screen.findByText('No users available')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add Your First User' })).toBeTruthy();
  });

  it('filters by level on the server and shows "No users found" for an empty filtered result', async () => {
    signIn(['users_view']);
    const fetchMock = serve((url) => (url.searchParams.get('level') === '3' ? page([]) : page([user(1)])));
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    fireEvent.click(selectInput('Filter by level'));
    fireEvent.click((await screen.findAllByRole('option', { name: 'Level 3', hidden: true })).at(-1)!);
    expect(await screen.findByText('No users found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search filters')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('level=3'))).toBe(true);
  });

  it('name filter: typing replaces the shown choice; it shows it is searching until the server answers, then the matches', async () => {
    signIn(['users_view']);
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    mockFetch(((path: string) => {
      if (path.startsWith('/ranks/getAllRank')) return jsonResponse(200, RANKS);
      if (path.startsWith('/users/getAllusers') && path.includes('search=sha')) {
        return answered.then(() => jsonResponse(200, page([user(7, { fullName: 'Riya Sharma' })])));
      }
      if (path.startsWith('/users/getAllusers')) return jsonResponse(200, page([user(1)]));
      return jsonResponse(404, { success: false, message: 'Not found' });
    }) as never);
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    const input = selectInput('Filter by user name');
    input.focus();
    // Focus selects the shown "All Users", so that typing replaces it.
    const box = input as HTMLInputElement;
    expect([box.value, box.selectionStart, box.selectionEnd]).toEqual(['All Users', 0, 'All Users'.length]);
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: 'sha' } });
    expect(await screen.findByRole('status', { name: 'Searching members' })).toBeTruthy();
    answer();
    expect(await screen.findByRole('option', { name: 'Riya Sharma (ID: 7)', hidden: true })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Searching members' })).toBeNull());
  });

  it('lists only active ranks, by name, in the rank filter', async () => {
    signIn(['users_view']);
    serve(() => page([user(1)]));
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    fireEvent.click(selectInput('Filter by rank'));
    await screen.findAllByRole('option', { name: 'Silver', hidden: true });
    const listbox = screen.getAllByRole('listbox', { hidden: true }).find((l) => within(l).queryByText('All Ranks'))!;
    expect(within(listbox).getAllByRole('option', { hidden: true }).map((o) => o.textContent)).toEqual(['All Ranks', 'Bronze', 'Silver']);
  });

  it('falls back to three badged, read-only sample users when loading fails', async () => {
    signIn(['users_view']);
    serve(() => page([]), (path) => (path.startsWith('/users/getAllusers') ? jsonResponse(500, { success: false, message: 'down' }) : undefined));
    renderPage(<UsersPage />);
    expect(await screen.findByText('Failed to load users. Using mock data instead.')).toBeTruthy();
    expect(screen.getByText('Sample data')).toBeTruthy();
    expect(screen.getAllByText(/^Sample (Admin|User One|User Two)$/).map((e) => e.closest('td')?.cellIndex)).toEqual([1, 1, 4, 1, 4]);
    expect(screen.getByRole('button', { name: 'Add User' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Delete Sample Admin' }).hasAttribute('disabled')).toBe(true);
  });

  it('treats an answer of the wrong shape as invalid data', async () => {
    signIn(['users_view']);
    serve(() => ({ data: 'nope' }));
    renderPage(<UsersPage />);
    expect(await screen.findByText('Invalid data format from API. Using mock data instead.')).toBeTruthy();
  });

  it('deletes after "Confirm Delete" and shows the success banner', async () => {
    signIn(['users_view', 'users_delete']);
    let deleted = '';
    serve(() => page([user(7)]), (path, init) => {
      if (init.method === 'DELETE') {
        deleted = path;
        return jsonResponse(200, { success: true, message: 'User deleted successfully' });
      }
      return undefined;
    });
    renderPage(<UsersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Member 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Delete' });
    expect(within(dialog).getByText('Are you sure you want to delete this user? This action cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully')).toBeTruthy();
    expect(deleted).toBe('/users/deleteByUserId/7');
  });

  it('opens the downline modal with its title, text, columns and empty state', async () => {
    signIn(['users_view']);
    serve(() => page([user(7, { fullName: 'Ravi Kumar' }), user(8)]), (path) => {
      if (path.startsWith('/users/downline?userId=7')) {
        return jsonResponse(200, { statusCode: 200, message: 'ok', totalMember: 1, data: [{ fullName: 'Kid One', userId: 9, level: 2, state: null, status: true, createDate: 'garbage' }] });
      }
      if (path.startsWith('/users/downline?userId=8')) return jsonResponse(200, { statusCode: 200, message: 'ok', totalMember: 0, data: [] });
      return undefined;
    });
    renderPage(<UsersPage />);
    const row = (await screen.findByText('Ravi Kumar')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Downline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Downline for Ravi Kumar (ID: 7)' });
    expect(within(dialog).getByText('Members directly referred by this user.')).toBeTruthy();
    await within(dialog).findByText('Kid One');
    for (const h of ['Full Name', 'User ID', 'Level', 'State', 'Status', 'Created Date']) expect(within(dialog).getByRole('columnheader', { name: h })).toBeTruthy();
    expect(within(dialog).getAllByText('N/A')).toHaveLength(2); // no state, invalid date
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(within(screen.getByText('Member 8').closest('tr')!).getByRole('button', { name: 'Downline' }));
    expect(await screen.findByText('No direct referrals found for this user.')).toBeTruthy();
  });

  it('says so when the downline cannot be fetched', async () => {
    signIn(['users_view']);
    serve(() => page([user(7)]), (path) => (path.startsWith('/users/downline') ? jsonResponse(500, { success: false, message: 'x' }) : undefined));
    renderPage(<UsersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Downline' }));
    expect(await screen.findByText('Failed to fetch downline data. Please try again.')).toBeTruthy();
  });
});

describe('UsersPage network', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the whole network by level with counts', async () => {
    signIn(['users_view']);
    serve(() => page([user(7, { fullName: 'Ravi Kumar' })]), (path) =>
      path.startsWith('/users/downline-tree?userId=7')
        ? jsonResponse(200, {
            success: true, depth: 10, totalMember: 3,
            user: { userId: 7, fullName: 'Ravi Kumar', level: 1, referralCode: 'BO7', status: true },
            levels: [
              { depth: 1, count: 1, members: [{ fullName: 'Kid One', userId: 9, level: 2, state: 'Kerala', status: true, createDate: '2026-01-02T00:00:00.000Z' }] },
              { depth: 2, count: 2, members: [{ fullName: 'Grandkid', userId: 10, level: 3, state: null, status: false, createDate: '2026-01-03T00:00:00.000Z' }] },
            ],
          })
        : undefined,
    );
    renderPage(<UsersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Network of Ravi Kumar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Network of Ravi Kumar (ID: 7)' });
    expect(await within(dialog).findByText(/Total members: 3/)).toBeTruthy();
    expect(within(dialog).getByText('1 member')).toBeTruthy();
    expect(within(dialog).getByText('2 members')).toBeTruthy();
    expect(within(dialog).getByText('Kid One')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /Level 2 below/ }));
    expect(await within(dialog).findByText('Showing the first 1 of 2 members on this level.')).toBeTruthy();
  });

});

describe('UsersPage issue 15', () => {
  afterEach(() => vi.unstubAllGlobals());

  // Item 12: every shape spec §7 lets the client accept, and a missing level shown as 'N/A' (spec §2).
  const { level: _level, ...withoutLevel } = user(3, { fullName: 'No Level' });
  it.each([
    ['a bare array', [user(1), withoutLevel]],
    ['users under data', { success: true, data: [user(1), withoutLevel] }],
    ['users under results', { results: [user(1), withoutLevel] }],
    ['a users array without paging', { success: true, users: [user(1), withoutLevel] }],
  ])('item 12: reads %s, with a missing level shown as N/A', async (_shape, answer) => {
    signIn(['users_view']);
    serve(() => answer);
    renderPage(<UsersPage />);
    const row = (await screen.findByText('No Level')).closest('tr')!;
    expect(within(row).getByText('N/A')).toBeTruthy();
    expect(screen.getByText('Member 1')).toBeTruthy();
    expect(screen.getByText('Total Users: 2')).toBeTruthy();
    expect(screen.queryByText('Invalid data format from API. Using mock data instead.')).toBeNull();
  });

  it('sorts on the server by a column header and says so with aria-sort', async () => {
    signIn(['users_view']);
    const fetchMock = serve((url) => page([user(url.searchParams.get('sort') === 'fullName' ? 2 : 1)]));
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    const name = screen.getByRole('columnheader', { name: /Name/ });
    expect(name.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(name).getByRole('button'));
    await screen.findByText('Member 2');
    expect(screen.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('sort=fullName'))).toBe(true);
    for (const h of ['Email', 'Status', 'Level']) expect(within(screen.getByRole('columnheader', { name: new RegExp(h) })).getByRole('button')).toBeTruthy();
  });

  it('item 6: offers the deeper levels members hold besides Level 1 to 10', async () => {
    signIn(['users_view']);
    const fetchMock = serve(
      (url) => page([user(url.searchParams.get('level') === '11' ? 11 : 1, { level: 11 })]),
      (path) => (path === '/users/levels' ? jsonResponse(200, { success: true, levels: [1, 2, 11] }) : undefined),
    );
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    fireEvent.click(selectInput('Filter by level'));
    const listbox = (await screen.findAllByRole('listbox', { hidden: true })).find((l) => within(l).queryByText('All Levels'))!;
    await within(listbox).findByText('Level 11');
    expect(within(listbox).getAllByRole('option', { hidden: true }).map((o) => o.textContent)).toEqual([
      'All Levels', ...Array.from({ length: 10 }, (_, i) => `Level ${i + 1}`), 'Level 11',
    ]);
    fireEvent.click(within(listbox).getByRole('option', { name: 'Level 11', hidden: true }));
    await screen.findByText('Member 11');
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('level=11'))).toBe(true);
  });

  it('item 14: Enter on typed text in the name filter picks the first match instead of going back to All Users', async () => {
    signIn(['users_view']);
    const fetchMock = serve((url) => {
      const search = url.searchParams.get('search');
      if (search === 'sha') return page([user(7, { fullName: 'Riya Sharma' }), user(8, { fullName: 'Anil Sharma' })]);
      if (search === '7') return page([user(7, { fullName: 'Riya Sharma' })]);
      return page([user(1)]);
    });
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    const input = selectInput('Filter by user name') as HTMLInputElement;
    input.focus();
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: 'sha' } });
    expect(input.value).toBe('sha');
    // Enter before the matches arrive: the first match is picked when they do.
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(input.value).toBe('Riya Sharma (ID: 7)'));
    await waitFor(() => expect(screen.queryByText('Member 1')).toBeNull());
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('search=7&page=1'))).toBe(true);
  });

});
