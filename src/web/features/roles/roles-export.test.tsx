import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadCsvFrom, signIn } from '../../test-utils';
import RolesPage from './roles-page';

// Issue 24: Download CSV on the Roles list, of the filtered list.
describe('RolesPage: export', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the search with the export', async () => {
    signIn(['roles_view']);
    const role = { roleId: 2, name: 'Operator', status: true, twoFactorRequired: true, createdAt: '2026-01-01T00:00:00.000Z' };
    expect(await downloadCsvFrom(<RolesPage />, { data: [role] }, '/?q=oper')).toEqual(['/api/roles/roles.csv?q=oper']);
  });
});
