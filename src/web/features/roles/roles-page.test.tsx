import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import RolesPage from './roles-page';

const ROLES = [
  { roleId: 1, name: 'Admin', status: true },
  { roleId: 2, name: 'User', status: true },
  { roleId: 3, name: 'Auditor', status: false },
  { roleId: 4, name: 'Treasury', status: true, twoFactorRequired: true },
];

describe('RolesPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the title, loading text, rows with Active/Inactive, search and the empty text', async () => {
    signIn(['roles_view']);
    mockFetch(() => jsonResponse(200, { success: true, data: ROLES }));
    renderPage(<RolesPage />);
    expect(screen.getByRole('heading', { name: 'User Roles' })).toBeTruthy();
    expect(screen.getByText('Manage system roles')).toBeTruthy();
    expect(screen.getByText('Loading roles...')).toBeTruthy();
    const auditor = (await screen.findByText('Auditor')).closest('tr') as HTMLElement;
    expect(within(auditor).getByText('Inactive')).toBeTruthy();
    expect(within(auditor).queryByText('Two-factor required')).toBeNull();
    const treasury = screen.getByText('Treasury').closest('tr') as HTMLElement;
    expect(within(treasury).getByText('Two-factor required')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Search roles...'), { target: { value: 'zzz' } });
    expect(screen.getByText('No roles found')).toBeTruthy();
  });

  it('validates the name, creates, and shows the 3 s success banner', async () => {
    signIn(['roles_view', 'roles_manage']);
    const fetchMock = mockFetch((path, init) =>
      init.method === 'POST' ? jsonResponse(201, { success: true, message: 'ok', data: {} }) : jsonResponse(200, ROLES),
    );
    renderPage(<RolesPage />);
    await screen.findByText('Auditor');
    fireEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please enter a role name')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Role Name/), { target: { value: 'Support' } });
    fireEvent.click(within(dialog).getByLabelText('Active'));
    fireEvent.click(within(dialog).getByRole('switch', { name: /Two-factor required/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Role created successfully')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(url).toBe('/api/CreateRoles');
    // Issue 13: the form also sends the role's two-factor requirement.
    expect(JSON.parse(String(init!.body))).toEqual({ name: 'Support', status: false, twoFactorRequired: true });
  });

  it('confirms a delete and shows the server refusal; a load failure shows its message', async () => {
    signIn(['roles_view', 'roles_manage']);
    mockFetch((path, init) =>
      init.method === 'DELETE'
        ? jsonResponse(409, { success: false, message: 'Role Auditor is held by accounts; give them another role before deleting it' })
        : jsonResponse(200, ROLES),
    );
    renderPage(<RolesPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Auditor' }));
    expect(await screen.findByText('Are you sure you want to delete this role?')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/held by accounts/)).toBeTruthy();
  });

  it('reports a load failure with the spec text', async () => {
    signIn(['roles_view']);
    mockFetch(() => jsonResponse(403, { success: false, message: 'You do not have permission to do this (roles_view is required)' }));
    renderPage(<RolesPage />);
    expect(await screen.findByText('Failed to load data: You do not have permission to do this (roles_view is required)')).toBeTruthy();
  });

  it('has the one visual language: icon row actions named by the row, light badges not kept in Title case, sortable Name', async () => {
    signIn(['roles_view', 'roles_manage']);
    mockFetch(() => jsonResponse(200, { success: true, data: ROLES }));
    renderPage(<RolesPage />);
    const treasury = (await screen.findByText('Treasury')).closest('tr') as HTMLElement;
    for (const name of ['Edit Treasury', 'Delete Treasury']) {
      const button = within(treasury).getByRole('button', { name });
      expect(button.textContent).toBe('');
      expect(button.classList.contains('mantine-ActionIcon-root')).toBe(true);
    }
    for (const text of ['Active', 'Two-factor required']) {
      const badge = within(treasury).getByText(text).closest('.mantine-Badge-root') as HTMLElement;
      expect(badge.getAttribute('data-variant')).toBe('light');
      // The theme writes badges in capitals; `tt="none"` (Title case) would set this.
      expect(badge.style.textTransform).toBe('');
    }
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'Name' })).getByRole('button'));
    const names = screen.getAllByRole('row').slice(1).map((r) => r.querySelectorAll('td')[1].textContent);
    expect(names).toEqual(['Admin', 'Auditor', 'Treasury', 'User']);
  });
});
