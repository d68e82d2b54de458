import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoToWireDate } from '../../contract/common';
import { DEFAULT_INCOME_SETTINGS } from '../../contract/income';
import { jsonResponse, mockFetch, renderPage, signIn } from '../test-utils';
import { MyRequests } from './approvals/my-requests';
import PlansPage from './income/plans-page';
import IncomeSettingsPage from './income/settings-page';
import PermissionsPage from './permissions/permissions-page';
import RolePermissionsPage from './role-permissions/role-permissions-page';
import RolesPage from './roles/roles-page';

// Issue 24: Download CSV on Permissions, Roles, Role Permissions, Plans, My requests and the saved
// income settings versions, each asking the server for the filtered list.
const SAVED = {
  versionId: 4, effectiveFrom: isoToWireDate('2026-04-01'), settings: DEFAULT_INCOME_SETTINGS, createdBy: 1, createdByName: 'Asha Admin',
  createdAt: '2026-03-31T06:30:00.000Z',
};

/** Serves `data` to every JSON read and a CSV to every .csv; clicks Download CSV; the URLs fetched. */
async function download(page: ReactElement, data: unknown, url?: string) {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
  const fetchMock = mockFetch((path) =>
    path.includes('.csv') ? new Response('ID\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }) : jsonResponse(200, { success: true, ...(data as object) }),
  );
  renderPage(page, url ? { url } : {});
  const button = await screen.findByRole('button', { name: 'Download CSV' });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(button);
  await waitFor(() => expect(fetchMock.mock.calls.some((c) => String(c[0]).includes('.csv'))).toBe(true));
  return fetchMock.mock.calls.map((c) => String(c[0])).filter((u) => u.includes('.csv'));
}

describe('Download CSV on the remaining lists', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('Permissions: the search and the module go with the export', async () => {
    signIn(['permissions_view']);
    const perm = { permissionId: 15, name: 'money_approve', description: 'Approve', module: 'Reports', createdAt: '2026-01-01T00:00:00.000Z' };
    const urls = await download(<PermissionsPage />, { data: [perm] }, '/?q=approve&module=Reports');
    expect(urls).toEqual(['/api/permissions/permissions.csv?q=approve&module=Reports']);
  });

  it('Roles: the search goes with the export', async () => {
    signIn(['roles_view']);
    const role = { roleId: 2, name: 'Operator', status: true, twoFactorRequired: true, createdAt: '2026-01-01T00:00:00.000Z' };
    expect(await download(<RolesPage />, { data: [role] }, '/?q=oper')).toEqual(['/api/roles/roles.csv?q=oper']);
  });

  it('Role Permissions', async () => {
    signIn(['roles_view']);
    expect(await download(<RolePermissionsPage />, { data: [] })).toEqual(['/api/role-permissions/rolePermissions.csv']);
  });

  it('Plans', async () => {
    signIn(['membership_view']);
    expect(await download(<PlansPage />, { data: [] })).toEqual(['/api/income/plans.csv']);
  });

  it('My requests: the status chosen goes with the export', async () => {
    signIn(['wallet_manage']);
    const urls = await download(<MyRequests status="rejected" page={1} onStatus={() => {}} onPage={() => {}} />, { data: [], total: 0, page: 1, limit: 25 });
    expect(urls).toEqual(['/api/approvals/mine.csv?status=rejected']);
  });

  it('Income Settings: the saved versions', async () => {
    signIn(['membership_view']);
    const urls = await download(<IncomeSettingsPage />, { data: { current: SAVED, scheduled: null, history: [SAVED] } });
    expect(urls).toEqual(['/api/income/settings/versions.csv']);
  });
});
