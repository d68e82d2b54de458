/**
 * The permission catalogue: every API route declares exactly one of these (or is public).
 * Modules are the four of spec §3. The role `Admin` holds every permission.
 */
export const PERMISSION_MODULES = ['Users', 'Reports', 'Dashboard', 'Settings'] as const;
export type PermissionModule = (typeof PERMISSION_MODULES)[number];

export const PERMISSIONS = {
  dashboard_view: { module: 'Dashboard', description: 'See the dashboard statistics' },
  users_view: { module: 'Users', description: 'See members, their downline and upline' },
  users_create: { module: 'Users', description: 'Add members' },
  users_edit: { module: 'Users', description: 'Edit members' },
  users_delete: { module: 'Users', description: 'Delete members' },
  banks_view: { module: 'Users', description: 'See members\u2019 bank accounts' },
  banks_manage: { module: 'Users', description: 'Add, edit and delete bank accounts' },
  membership_view: { module: 'Users', description: 'See memberships and amount history' },
  membership_manage: { module: 'Users', description: 'Activate membership plans for members (paid outside the wallet: four eyes)' },
  reports_view: { module: 'Reports', description: 'See revenue, royalty and reward income' },
  payouts_view: { module: 'Reports', description: 'See daily payouts' },
  payouts_pay: { module: 'Reports', description: 'Pay failed payouts and transfer income' },
  wallet_view: { module: 'Reports', description: 'See wallet transactions and balances' },
  wallet_manage: { module: 'Reports', description: 'Recharge wallets and handle withdrawals' },
  money_approve: { module: 'Reports', description: 'Approve or reject money movements above the approval threshold (never one\u2019s own)' },
  audit_view: { module: 'Reports', description: 'See the audit log' },
  books_view: { module: 'Reports', description: 'See the books: trial balance, account statements and transfers' },
  bank_transfers: { module: 'Reports', description: 'Gather, release and reconcile bank transfer batches' },
  income_runs: { module: 'Reports', description: 'Preview and start income runs (payouts, royalty, rewards, ranks) and ask for a reversal' },
  ranks_view: { module: 'Settings', description: 'See ranks' },
  ranks_manage: { module: 'Settings', description: 'Create, edit and delete ranks' },
  income_settings: { module: 'Settings', description: 'Set membership plans, income settings and rank criteria' },
  services_view: { module: 'Settings', description: 'See the services catalogue' },
  services_manage: { module: 'Settings', description: 'Create and edit services' },
  permissions_view: { module: 'Settings', description: 'See permissions' },
  permissions_manage: { module: 'Settings', description: 'Create, edit and delete permissions' },
  roles_view: { module: 'Settings', description: 'See roles and role permissions' },
  roles_manage: { module: 'Settings', description: 'Create, edit and delete roles and role permissions' },
  staff_manage: { module: 'Settings', description: 'Invite staff, assign their roles, deactivate them and sign them out' },
} as const satisfies Record<string, { module: PermissionModule; description: string }>;

export type PermissionName = keyof typeof PERMISSIONS;

/**
 * Who may call an endpoint. Every /api endpoint declares one: 'public', 'session' (any signed-in
 * account, e.g. logout), or the one permission it needs.
 */
export type Access = 'public' | 'session' | PermissionName;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as PermissionName[];

/**
 * The roles a fresh install starts with beside Admin (issue 24), so that the first invitation can
 * offer them; each is an ordinary role afterwards (renamed, edited, deactivated or deleted like any
 * other). Four eyes: the Operator files money requests (recharges, Pay Now, activations paid
 * outside, run reversals) but cannot approve them; the Approver holds `money_approve` and nothing
 * that moves money itself; nobody but Admin holds roles_manage, permissions_manage or staff_manage.
 * docs/decisions.md lists the same sets. Created by ensureReferenceData on an empty database and by
 * migration 0027 on an existing one (only where a role of that name is absent).
 */
export const READY_ROLES: readonly { name: string; twoFactorRequired: boolean; permissions: readonly PermissionName[] }[] = [
  {
    name: 'Operator',
    twoFactorRequired: true,
    permissions: [
      'dashboard_view', 'users_view', 'users_create', 'users_edit', 'banks_view', 'banks_manage', 'membership_view',
      'membership_manage', 'reports_view', 'payouts_view', 'payouts_pay', 'wallet_view', 'wallet_manage', 'income_runs',
      'ranks_view', 'services_view',
    ],
  },
  {
    name: 'Approver',
    twoFactorRequired: true,
    permissions: [
      'dashboard_view', 'users_view', 'banks_view', 'membership_view', 'reports_view', 'payouts_view', 'wallet_view',
      'money_approve', 'audit_view',
    ],
  },
  {
    name: 'Accountant',
    twoFactorRequired: false,
    permissions: [
      'dashboard_view', 'users_view', 'banks_view', 'membership_view', 'reports_view', 'payouts_view', 'wallet_view',
      'audit_view', 'ranks_view', 'services_view', 'bank_transfers', 'books_view',
    ],
  },
  {
    name: 'Support',
    twoFactorRequired: false,
    permissions: ['dashboard_view', 'users_view', 'users_edit', 'banks_view', 'membership_view', 'wallet_view', 'services_view'],
  },
];

/** The bootstrap role that holds every permission and can't be deactivated. */
export const ADMIN_ROLE = 'Admin';
/**
 * The members' role (members added by an operator hold it; they never sign in). It can hold no
 * permission and is never given to staff; self-registered accounts get no role at all.
 */
export const USER_ROLE = 'User';

/**
 * Whether accounts of a role must sign in with a second factor: the role says so, or it is Admin
 * while the server requires it of administrators (ADMIN_TWO_FACTOR, on in production).
 */
export function roleRequiresTwoFactor(role: { name: string; twoFactorRequired: boolean }, adminTwoFactor: boolean): boolean {
  return role.twoFactorRequired || (adminTwoFactor && role.name === ADMIN_ROLE);
}
