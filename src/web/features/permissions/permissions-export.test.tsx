import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadCsvFrom, signIn } from '../../test-utils';
import PermissionsPage from './permissions-page';

// Issue 24: Download CSV on the Permissions list, of the filtered list.
describe('PermissionsPage: export', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the search and the module with the export', async () => {
    signIn(['permissions_view']);
    const perm = { permissionId: 15, name: 'money_approve', description: 'Approve', module: 'Reports', createdAt: '2026-01-01T00:00:00.000Z' };
    expect(await downloadCsvFrom(<PermissionsPage />, { data: [perm] }, '/?q=approve&module=Reports'))
      .toEqual(['/api/permissions/permissions.csv?q=approve&module=Reports']);
  });
});
