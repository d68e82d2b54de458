/**
 * The panel's route paths. They live in lib/ because features link to each other's screens
 * (a member's page, sign-in after a reset) and features may not import app/, which composes them.
 */
export const PATHS = {
  signIn: '/signin',
  signUp: '/signup',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  acceptInvite: '/accept-invite',
  confirmEmail: '/confirm-email',
  twoFactorSetup: '/two-factor-setup',
  dashboard: '/',
  users: '/users',
  services: '/services',
  revenue: '/revenue',
  royaltyIncome: '/royalty-income',
  rewardIncome: '/reward-income',
  dailyPayout: '/daily-payout',
  wallet: '/wallet',
  rank: '/rank',
  bank: '/bank',
  membership: '/membership',
  permissions: '/permissions',
  roles: '/roles',
  rolePermissions: '/role-permissions',
  audit: '/audit',
  staff: '/staff',
  approvals: '/approvals',
  // The income engine (issue 16).
  plans: '/income/plans',
  incomeSettings: '/income/settings',
  runs: '/income/runs',
  // Money out to banks (issue 25).
  bankTransfers: '/bank-transfers',
  // The books (issue 25).
  books: '/books',
  // Tax on what is paid (issue 25).
  tdsReport: '/reports/tds',
  monthlyStatement: '/reports/monthly-statement',
} as const;

/** The signed-in account's own security page (two-factor, active sessions): any account, no permission. */
export const ACCOUNT_PATH = '/account';

/** A member's own page: profile, upline chain and genealogy (permission users_view). */
export const MEMBER_PATH = '/users/:userId';
export const memberPath = (userId: number) => `/users/${userId}`;
/** The income runs list with one run's details open (`?run=12`, runs-page.tsx). */
export const runPath = (runId: number) => `${PATHS.runs}?run=${runId}`;
