import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import PermissionsPage from './permissions-page';

const PERMS = [
  { permissionId: 1, name: 'users_view', description: 'See members', module: 'Users' },
  { permissionId: 2, name: 'reports_view', description: 'See reports', module: 'Reports' },
  { name: 'orphan_perm', description: 'Has no id', module: 'Settings' },
];

describe('PermissionsPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the loading text, then the table; search and module filter narrow it', async () => {
    signIn(['permissions_view']);
    mockFetch(() => jsonResponse(200, { success: true, data: PERMS }));
    renderPage(<PermissionsPage />);
    expect(screen.getByText('Loading permissions...')).toBeTruthy();
    expect(await screen.findByText('users_view')).toBeTruthy();
    for (const h of ['S.No', 'Name', 'Description', 'Actions']) expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('Search permissions...'), { target: { value: 'report' } });
    expect(screen.queryByText('users_view')).toBeNull();
    expect(screen.getByText('reports_view')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Search permissions...'), { target: { value: 'nothing-matches' } });
    expect(screen.getByText('No permissions found')).toBeTruthy();
  });

  it('creates with the name formatted as spec §5, then shows the success banner', async () => {
    signIn(['permissions_view', 'permissions_manage']);
    const fetchMock = mockFetch((path, init) =>
      init.method === 'POST'
        ? jsonResponse(201, { success: true, message: 'Permission created successfully', data: {} })
        : jsonResponse(200, { success: true, data: PERMS }),
    );
    renderPage(<PermissionsPage />);
    await screen.findByText('users_view');
    fireEvent.click(screen.getByRole('button', { name: 'Add Permission' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please fill in all fields')).toBeTruthy();

    fireEvent.click(within(dialog).getByLabelText(/^Module/));
    fireEvent.click((await screen.findAllByRole('option', { name: 'Reports', hidden: true })).at(-1)!);
    fireEvent.change(within(dialog).getByLabelText(/Permission Name/), { target: { value: 'Export  Monthly-Report!' } });
    fireEvent.change(within(dialog).getByLabelText(/Description/), { target: { value: 'Export reports' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Permission created successfully')).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(JSON.parse(String(init!.body))).toEqual({ module: 'Reports', name: 'export_monthlyreport', description: 'Export reports' });
  });

  it('confirms a delete, prefers the server message on failure, and reports a missing id', async () => {
    signIn(['permissions_view', 'permissions_manage']);
    mockFetch((path, init) =>
      init.method === 'DELETE'
        ? jsonResponse(409, { success: false, message: 'users_view is used by the server\u2019s routes and can\u2019t be deleted' })
        : jsonResponse(200, PERMS),
    );
    renderPage(<PermissionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete users_view' }));
    expect(await screen.findByText('Are you sure you want to delete this permission?')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/can.t be deleted/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Edit orphan_perm' }));
    expect(await screen.findByText('Unable to edit permission: No valid ID found')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete orphan_perm' }));
    expect(await screen.findByText('Invalid permission ID')).toBeTruthy();
  });

  it('on failure shows the message and the five sample permissions, badged and read-only', async () => {
    signIn(['permissions_view']);
    mockFetch(() => jsonResponse(500, { success: false, message: 'Database down' }));
    renderPage(<PermissionsPage />);
    expect(await screen.findByText('Failed to load permissions: Database down')).toBeTruthy();
    for (const name of ['users_view', 'users_create', 'users_edit', 'users_delete', 'reports_view']) expect(screen.getByText(name)).toBeTruthy();
    expect(screen.getAllByText('Sample data')).toHaveLength(5);
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    await waitFor(() => expect((screen.getByRole('button', { name: 'Add Permission' }) as HTMLButtonElement).disabled).toBe(true));
  });

  it('shows the module as the one light badge, not kept in Title case, and sorts by name', async () => {
    signIn(['permissions_view', 'permissions_manage']);
    mockFetch(() => jsonResponse(200, { success: true, data: PERMS }));
    renderPage(<PermissionsPage />);
    const users = (await screen.findByText('users_view')).closest('tr') as HTMLElement;
    const badge = within(users).getByText('Users').closest('.mantine-Badge-root') as HTMLElement;
    expect(badge.getAttribute('data-variant')).toBe('light');
    expect(badge.style.textTransform).toBe('');
    expect(within(users).getByRole('button', { name: 'Edit users_view' }).textContent).toBe('');
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'Name' })).getByRole('button'));
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'Name' })).getByRole('button'));
    const names = screen.getAllByRole('row').slice(1).map((r) => r.querySelectorAll('td')[2].textContent);
    expect(names).toEqual(['users_viewUsers', 'reports_viewReports', 'orphan_permSettings']);
    // Issue 24: the id a role's set holds is shown beside S.No, which is only the row's place.
    const ids = screen.getAllByRole('row').slice(1).map((r) => [r.querySelectorAll('td')[0].textContent, r.querySelectorAll('td')[1].textContent]);
    expect(ids).toEqual([['1', '1'], ['2', '2'], ['3', 'N/A']]);
  });
});
