import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import { rolePermissionsQuery } from './role-permissions.api';
import RolePermissionsPage from './role-permissions-page';

const ROWS = [
  { _id: '1', roleId: 1, roleName: 'Admin', permissionName: 'All permissions', permissionIds: [1, 2], status: true, createdAt: '2026-01-05T10:00:00Z' },
  { _id: '2', roleId: 3, roleName: '', permissionName: '', permissionIds: [4, 7, 9], status: false, createdAt: '2026-01-06T10:00:00Z' },
  { _id: '3', roleId: 4, roleName: 'Single', permissionName: 'One', permissionIds: [5], status: true, createdAt: '2026-01-06T10:00:00Z' },
  { _id: '4', roleId: 5, roleName: 'Empty', permissionName: 'None', permissionIds: [], status: true, createdAt: '2026-01-06T10:00:00Z' },
];

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('RolePermissionsPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the spec columns with the fallbacks Role {roleId} and Permission Group, and polls every 10 s', async () => {
    signIn(['roles_view']);
    mockFetch(() => jsonResponse(200, { success: true, data: ROWS }));
    renderPage(<RolePermissionsPage />);
    expect(await screen.findByText('Role 3')).toBeTruthy();
    for (const h of ['S.No', 'Role Name', 'Role ID', 'Permission Name', 'Permission IDs', 'Status', 'Created At', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: h })).toBeTruthy();
    }
    expect(within(row('Role 3')).getByText('Permission Group')).toBeTruthy();
    expect(within(row('Role 3')).getByText('4, 7, 9')).toBeTruthy();
    expect(within(row('Role 3')).getByText('Inactive')).toBeTruthy();
    expect(rolePermissionsQuery().refetchInterval).toBe(10_000);
  });

  it('shows the empty state', async () => {
    signIn(['roles_view']);
    mockFetch(() => jsonResponse(200, { success: true, data: [] }));
    renderPage(<RolePermissionsPage />);
    expect(await screen.findByText('No role permissions found')).toBeTruthy();
  });

  it('toggles through an update call that sends only permissionIds and status', async () => {
    signIn(['roles_view', 'roles_manage']);
    const fetchMock = mockFetch((path, init) =>
      init.method === 'PUT'
        ? jsonResponse(200, { success: true, message: 'Role permission updated successfully', data: {} })
        : jsonResponse(200, { success: true, data: ROWS }),
    );
    renderPage(<RolePermissionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Toggle Role 3' }));
    expect(await screen.findByText('Role permission updated successfully')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT')!;
    expect(url).toBe('/api/role-permissions/updatePermissionForRole/3');
    expect(JSON.parse(String(init!.body))).toEqual({ permissionIds: [4, 7, 9], status: true });
  });

  it('deletes one permission by typed id: rejects an id the role lacks, confirms, removes it at once', async () => {
    signIn(['roles_view', 'roles_manage']);
    let release: () => void = () => {};
    const fetchMock = mockFetch((path, init) => {
      if (init.method === 'DELETE') {
        return new Promise<Response>((resolve) => {
          release = () => resolve(jsonResponse(200, { success: true, message: 'Permission removed from role successfully', data: {} }));
        });
      }
      return jsonResponse(200, { success: true, data: ROWS });
    });
    renderPage(<RolePermissionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Permission of Role 3' }));
    const prompt = await screen.findByRole('dialog', { name: 'Delete Permission' });
    fireEvent.change(within(prompt).getByLabelText('Permission ID'), { target: { value: '8' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Continue' }));
    expect(await within(prompt).findByText('Invalid permission ID. Please try again.')).toBeTruthy();
    fireEvent.change(within(prompt).getByLabelText('Permission ID'), { target: { value: '7' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Continue' }));
    const confirm = await screen.findByText('Are you sure you want to delete permission 7 from role 3?');
    fireEvent.click(within(confirm.closest('[role="dialog"]') as HTMLElement).getByRole('button', { name: 'Delete' }));
    // Optimistic: gone from the row before the server answers.
    expect(await screen.findByText('4, 9')).toBeTruthy();
    await act(async () => release());
    expect(await screen.findByText('Permission removed from role successfully')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u, i]) => i?.method === 'DELETE' && u === '/api/role-permissions/removePermissionFromRole/3/7')).toBe(true);
  });

  it('a role with one permission goes straight to the confirmation; none gives the spec message', async () => {
    signIn(['roles_view', 'roles_manage']);
    mockFetch(() => jsonResponse(200, { success: true, data: ROWS }));
    renderPage(<RolePermissionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Permission of Single' }));
    expect(await screen.findByText('Are you sure you want to delete permission 5 from role 4?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Permission of Empty' }));
    expect(await screen.findByText('No permission ID found to delete')).toBeTruthy();
  });

  it('restores the row when deleting a role fails, with the server message', async () => {
    signIn(['roles_view', 'roles_manage']);
    mockFetch((path, init) =>
      init.method === 'DELETE'
        ? jsonResponse(409, { success: false, message: 'The Admin role always holds every permission' })
        : jsonResponse(200, { success: true, data: ROWS }),
    );
    renderPage(<RolePermissionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete role Admin' }));
    const confirm = await screen.findByText('Are you sure you want to delete role 1 with all its permissions? This action cannot be undone.');
    fireEvent.click(within(confirm.closest('[role="dialog"]') as HTMLElement).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The Admin role always holds every permission')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('All permissions')).toBeTruthy());
  });

  it('creates optimistically with the chosen role\u2019s real name; a refusal keeps the dialog open with the input and removes the row', async () => {
    signIn(['roles_view', 'roles_manage']);
    const ROLES = [{ roleId: 9, name: 'Auditor', status: true }, { roleId: 12, name: 'Support', status: true }];
    let answer: (res: Response) => void = () => {};
    const fetchMock = mockFetch((path, init) => {
      if (init.method === 'POST') return new Promise<Response>((resolve) => (answer = resolve));
      if (path === '/GetAllRoles') return jsonResponse(200, { success: true, data: ROLES });
      return jsonResponse(200, { success: true, data: ROWS });
    });
    renderPage(<RolePermissionsPage />);
    await screen.findByText('Role 3');
    fireEvent.click(screen.getByRole('button', { name: 'Add Role Permission' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please fill in all fields')).toBeTruthy();
    // A typed Role ID shows its role's name; Role Name is not free text.
    fireEvent.change(within(dialog).getByLabelText(/Role ID/), { target: { value: '9' } });
    await waitFor(() => expect((within(dialog).getByLabelText('Role Name') as HTMLInputElement).value).toBe('Auditor'));
    fireEvent.change(within(dialog).getByLabelText(/Permission IDs/), { target: { value: '99, x, 3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    // The temporary row has the role's real name, while the dialog waits for the answer.
    expect(await screen.findByText('Saving...')).toBeTruthy();
    expect(within(row('Saving...')).getByText('Auditor')).toBeTruthy();
    expect(screen.getByText('99, 3')).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(JSON.parse(String(init!.body))).toMatchObject({ roleId: 9, roleName: 'Auditor', permissionIds: [99, 3], status: true });
    await act(async () => answer(jsonResponse(400, { success: false, message: 'Role 9 does not exist' })));
    expect(await within(dialog).findByText('Role 9 does not exist')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect((within(dialog).getByLabelText(/Permission IDs/) as HTMLInputElement).value).toBe('99, x, 3');
    expect((within(dialog).getByLabelText(/Role ID/) as HTMLInputElement).value).toBe('9');
    await waitFor(() => expect(screen.queryByText('Saving...')).toBeNull());
    expect(screen.queryByText('99, 3')).toBeNull();
  });

  it('uses icon row actions named by the row and the one status badge', async () => {
    signIn(['roles_view', 'roles_manage']);
    mockFetch(() => jsonResponse(200, { success: true, data: ROWS }));
    renderPage(<RolePermissionsPage />);
    await screen.findByText('Role 3');
    for (const name of ['Edit Single', 'Delete Permission of Single', 'Delete role Single', 'Toggle Single']) {
      const button = within(row('Single')).getByRole('button', { name });
      expect(button.textContent).toBe('');
      expect(button.classList.contains('mantine-ActionIcon-root')).toBe(true);
    }
    const badge = within(row('Single')).getByText('Active').closest('.mantine-Badge-root') as HTMLElement;
    expect(badge.getAttribute('data-variant')).toBe('light');
    expect(badge.style.textTransform).toBe('');
  });

  describe('names, not numbers (issue 24)', () => {
    const CATALOGUE = [
      { permissionId: 1, name: 'users_view', description: 'See members', module: 'Users' },
      { permissionId: 2, name: 'users_edit', description: 'Edit members', module: 'Users' },
      { permissionId: 4, name: 'money_approve', description: 'Approve money movements', module: 'Reports' },
      { permissionId: 7, name: 'wallet_manage', description: 'Recharge wallets', module: 'Reports' },
      { permissionId: 9, name: 'ranks_view', description: 'See ranks', module: 'Settings' },
    ];
    function serve() {
      return mockFetch((path, init) => {
        if (init.method === 'POST') return jsonResponse(201, { success: true, message: 'Role permission created successfully' });
        if (path === '/GetAllRoles') return jsonResponse(200, { success: true, data: [{ roleId: 9, name: 'Auditor', status: true }] });
        if (path === '/permissions/getPermissions') return jsonResponse(200, { success: true, data: CATALOGUE });
        return jsonResponse(200, { success: true, data: ROWS });
      });
    }

    it('the table shows the names beside the ids', async () => {
      signIn(['roles_view', 'permissions_view']);
      serve();
      renderPage(<RolePermissionsPage />);
      await screen.findByText('Role 3');
      expect(await within(row('Role 3')).findByText('money_approve, wallet_manage, ranks_view')).toBeTruthy();
      expect(within(row('Role 3')).getByText('4, 7, 9')).toBeTruthy();
    });

    it('the form picks permissions by name, searchable and grouped by module, and sends their ids', async () => {
      signIn(['roles_view', 'roles_manage', 'permissions_view']);
      const fetchMock = serve();
      renderPage(<RolePermissionsPage />);
      await screen.findByText('Role 3');
      fireEvent.click(screen.getByRole('button', { name: 'Add Role Permission' }));
      const dialog = await screen.findByRole('dialog');
      fireEvent.change(within(dialog).getByLabelText(/Role ID/), { target: { value: '9' } });
      const picker = await within(dialog).findByLabelText(/^Permissions/);
      expect(within(dialog).queryByLabelText(/Permission IDs/)).toBeNull();
      fireEvent.click(picker);
      fireEvent.change(picker, { target: { value: 'wallet' } });
      const option = await screen.findByRole('option', { name: /wallet_manage/, hidden: true });
      expect(screen.queryByRole('option', { name: /users_view/, hidden: true })).toBeNull();
      expect(option.closest('[role="listbox"]')?.textContent).toContain('Reports');
      expect(option.textContent).toContain('ID 7');
      fireEvent.click(option);
      fireEvent.change(picker, { target: { value: 'users_e' } });
      fireEvent.click(await screen.findByRole('option', { name: /users_edit/, hidden: true }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
      await waitFor(() => expect(fetchMock.mock.calls.some(([, i]) => i?.method === 'POST')).toBe(true));
      const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
      expect(JSON.parse(String(init!.body))).toMatchObject({ roleId: 9, roleName: 'Auditor', permissionIds: [2, 7] });
    });
  });
});
