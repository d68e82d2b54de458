import type { PermissionName } from '../../contract/permissions';
import { PATHS } from '../lib/paths';

export type MainPath = Exclude<
  (typeof PATHS)[keyof typeof PATHS],
  '/signin' | '/signup' | '/register' | '/forgot-password' | '/reset-password' | '/accept-invite' | '/confirm-email' | '/two-factor-setup'
>;

export interface NavItem {
  label: string;
  path: MainPath;
  permission: PermissionName;
  group: 'main' | 'access';
}

/** The sidebar, in spec §1 order, and the one permission each main route needs. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', path: PATHS.dashboard, permission: 'dashboard_view', group: 'main' },
  { label: 'Users', path: PATHS.users, permission: 'users_view', group: 'main' },
  { label: 'Services', path: PATHS.services, permission: 'services_view', group: 'main' },
  { label: 'Revenue', path: PATHS.revenue, permission: 'reports_view', group: 'main' },
  { label: 'Royalty Income', path: PATHS.royaltyIncome, permission: 'reports_view', group: 'main' },
  { label: 'Reward Income', path: PATHS.rewardIncome, permission: 'reports_view', group: 'main' },
  { label: 'Daily Payout', path: PATHS.dailyPayout, permission: 'payouts_view', group: 'main' },
  { label: 'User Wallet', path: PATHS.wallet, permission: 'wallet_view', group: 'main' },
  { label: 'Rank', path: PATHS.rank, permission: 'ranks_view', group: 'main' },
  { label: 'Bank', path: PATHS.bank, permission: 'banks_view', group: 'main' },
  { label: 'Membership', path: PATHS.membership, permission: 'membership_view', group: 'main' },
  // Beyond the spec's sidebar (issue 13), after its entries so their order stays the spec's.
  { label: 'Approvals', path: PATHS.approvals, permission: 'money_approve', group: 'main' },
  // The income engine (issue 16).
  { label: 'Income Runs', path: PATHS.runs, permission: 'payouts_view', group: 'main' },
  { label: 'Membership Plans', path: PATHS.plans, permission: 'membership_view', group: 'main' },
  { label: 'Income Settings', path: PATHS.incomeSettings, permission: 'membership_view', group: 'main' },
  // Money out to banks (issue 25).
  { label: 'Bank Transfers', path: PATHS.bankTransfers, permission: 'bank_transfers', group: 'main' },
  // The books (issue 25): trial balance, account statements, transfers.
  { label: 'Books', path: PATHS.books, permission: 'books_view', group: 'main' },
  // Tax on what is paid (issue 25).
  { label: 'TDS Report', path: PATHS.tdsReport, permission: 'reports_view', group: 'main' },
  { label: 'Monthly Statement', path: PATHS.monthlyStatement, permission: 'reports_view', group: 'main' },
  { label: 'Permissions', path: PATHS.permissions, permission: 'permissions_view', group: 'access' },
  { label: 'Roles', path: PATHS.roles, permission: 'roles_view', group: 'access' },
  { label: 'Role Permissions', path: PATHS.rolePermissions, permission: 'roles_view', group: 'access' },
  { label: 'Staff', path: PATHS.staff, permission: 'staff_manage', group: 'access' },
  { label: 'Audit Log', path: PATHS.audit, permission: 'audit_view', group: 'access' },
];

export const ROUTE_PERMISSIONS = Object.fromEntries(
  NAV_ITEMS.map((item) => [item.path, item.permission]),
) as Record<MainPath, PermissionName>;

export function visibleNavItems(permissions: readonly string[]): NavItem[] {
  return NAV_ITEMS.flatMap((item) => {
    if (permissions.includes(item.permission)) return [item];
    // Issue 24: an operator who cannot approve still follows the requests they filed.
    if (item.path === PATHS.approvals && permissions.length > 0) return [{ ...item, label: 'My requests' }];
    return [];
  });
}
