import {
  IconBuildingBank,
  IconChartBar,
  IconCoinRupee,
  IconCrown,
  IconGift,
  IconHistory,
  IconKey,
  IconLayoutDashboard,
  IconListCheck,
  IconMedal,
  IconReceipt,
  IconShieldLock,
  IconUsers,
  IconUserShield,
  IconUserStar,
  IconWallet,
  IconChecklist,
  IconAdjustmentsDollar,
  IconPlayerPlay,
  IconTicket,
  type Icon,
} from '@tabler/icons-react';
import type { PermissionName } from '../../contract/permissions';
import { PATHS } from '../lib/paths';

export type MainPath = Exclude<
  (typeof PATHS)[keyof typeof PATHS],
  '/signin' | '/signup' | '/register' | '/forgot-password' | '/reset-password' | '/accept-invite' | '/two-factor-setup'
>;

export interface NavItem {
  label: string;
  path: MainPath;
  permission: PermissionName;
  icon: Icon;
  group: 'main' | 'access';
}

/** The sidebar, in spec §1 order, and the one permission each main route needs. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', path: PATHS.dashboard, permission: 'dashboard_view', icon: IconLayoutDashboard, group: 'main' },
  { label: 'Users', path: PATHS.users, permission: 'users_view', icon: IconUsers, group: 'main' },
  { label: 'Services', path: PATHS.services, permission: 'services_view', icon: IconListCheck, group: 'main' },
  { label: 'Revenue', path: PATHS.revenue, permission: 'reports_view', icon: IconChartBar, group: 'main' },
  { label: 'Royalty Income', path: PATHS.royaltyIncome, permission: 'reports_view', icon: IconCrown, group: 'main' },
  { label: 'Reward Income', path: PATHS.rewardIncome, permission: 'reports_view', icon: IconGift, group: 'main' },
  { label: 'Daily Payout', path: PATHS.dailyPayout, permission: 'payouts_view', icon: IconCoinRupee, group: 'main' },
  { label: 'User Wallet', path: PATHS.wallet, permission: 'wallet_view', icon: IconWallet, group: 'main' },
  { label: 'Rank', path: PATHS.rank, permission: 'ranks_view', icon: IconMedal, group: 'main' },
  { label: 'Bank', path: PATHS.bank, permission: 'banks_view', icon: IconBuildingBank, group: 'main' },
  { label: 'Membership', path: PATHS.membership, permission: 'membership_view', icon: IconUserStar, group: 'main' },
  // Beyond the spec's sidebar (issue 13), after its entries so their order stays the spec's.
  { label: 'Approvals', path: PATHS.approvals, permission: 'money_approve', icon: IconChecklist, group: 'main' },
  // The income engine (issue 16).
  { label: 'Income Runs', path: PATHS.runs, permission: 'payouts_view', icon: IconPlayerPlay, group: 'main' },
  { label: 'Membership Plans', path: PATHS.plans, permission: 'membership_view', icon: IconTicket, group: 'main' },
  { label: 'Income Settings', path: PATHS.incomeSettings, permission: 'membership_view', icon: IconAdjustmentsDollar, group: 'main' },
  { label: 'Permissions', path: PATHS.permissions, permission: 'permissions_view', icon: IconKey, group: 'access' },
  { label: 'Roles', path: PATHS.roles, permission: 'roles_view', icon: IconShieldLock, group: 'access' },
  { label: 'Role Permissions', path: PATHS.rolePermissions, permission: 'roles_view', icon: IconReceipt, group: 'access' },
  { label: 'Staff', path: PATHS.staff, permission: 'staff_manage', icon: IconUserShield, group: 'access' },
  { label: 'Audit Log', path: PATHS.audit, permission: 'audit_view', icon: IconHistory, group: 'access' },
];

export const ROUTE_PERMISSIONS = Object.fromEntries(
  NAV_ITEMS.map((item) => [item.path, item.permission]),
) as Record<MainPath, PermissionName>;

export function visibleNavItems(permissions: readonly string[]): NavItem[] {
  return NAV_ITEMS.filter((item) => permissions.includes(item.permission));
}
