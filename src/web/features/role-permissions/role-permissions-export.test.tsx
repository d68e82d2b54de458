import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadCsvFrom, signIn } from '../../test-utils';
import RolePermissionsPage from './role-permissions-page';

// Issue 24: Download CSV on the Role Permissions list.
describe('RolePermissionsPage: export', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('downloads the role permissions as CSV from the server', async () => {
    signIn(['roles_view']);
    expect(await downloadCsvFrom(<RolePermissionsPage />, { data: [] })).toEqual(['/api/role-permissions/rolePermissions.csv']);
  });
});
