import { lazy, Suspense, type ReactNode } from 'react';
import { Container } from '@mantine/core';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { RouteErrorFallback } from '../components/error-fallback';
import { PageLoader } from '../components/page-loader';
import { RequireAuth, RequirePermission } from './guards';
import { LayoutLoading } from './shell/layout-loading';
import { ACCOUNT_PATH, MEMBER_PATH, PATHS } from '../lib/paths';
import { ROUTE_PERMISSIONS, type MainPath } from './paths';
import { SCREENS } from './screens';

// The shell is its own chunk: the sign-in route does not load it (size budget, vite-budget.ts).
const AppLayout = lazy(() => import('./shell/app-layout').then((m) => ({ default: m.AppLayout })));
const SignInPage = lazy(() => import('../features/auth/signin-page'));
const RegisterPage = lazy(() => import('../features/auth/register-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
const AcceptInvitePage = lazy(() => import('../features/auth/accept-invite-page'));
const ConfirmEmailPage = lazy(() => import('../features/auth/confirm-email-page'));
const TwoFactorSetupPage = lazy(() => import('../features/auth/two-factor-setup-page'));
const AccountSecurityPage = lazy(() => import('../features/auth/account-security-page'));
const StaffPage = lazy(SCREENS[PATHS.staff]);
const ApprovalsPage = lazy(SCREENS[PATHS.approvals]);
const PlansPage = lazy(SCREENS[PATHS.plans]);
const IncomeSettingsPage = lazy(SCREENS[PATHS.incomeSettings]);
const RunsPage = lazy(SCREENS[PATHS.runs]);
const BankTransfersPage = lazy(SCREENS[PATHS.bankTransfers]);
const BooksPage = lazy(SCREENS[PATHS.books]);
const TdsReportPage = lazy(SCREENS[PATHS.tdsReport]);
const MonthlyStatementPage = lazy(SCREENS[PATHS.monthlyStatement]);
const DashboardPage = lazy(SCREENS[PATHS.dashboard]);
const ApiTestPage = lazy(() => import('../features/system/api-test-page'));
const AuditPage = lazy(SCREENS[PATHS.audit]);
const MemberPage = lazy(() => import('../features/network/member-page'));
const RevenuePage = lazy(SCREENS[PATHS.revenue]);
const RoyaltyIncomePage = lazy(SCREENS[PATHS.royaltyIncome]);
const RewardIncomePage = lazy(SCREENS[PATHS.rewardIncome]);
const PayoutsPage = lazy(SCREENS[PATHS.dailyPayout]);
const WalletPage = lazy(SCREENS[PATHS.wallet]);
const UsersPage = lazy(SCREENS[PATHS.users]);
const RanksPage = lazy(SCREENS[PATHS.rank]);
const BankPage = lazy(SCREENS[PATHS.bank]);
const MembershipPage = lazy(SCREENS[PATHS.membership]);
const MembershipListPage = lazy(() => import('../features/membership/membership-list-page'));
const MembershipTestPage = lazy(() => import('../features/membership/membership-test-page'));
const PermissionsPage = lazy(SCREENS[PATHS.permissions]);
const RolesPage = lazy(SCREENS[PATHS.roles]);
const RolePermissionsPage = lazy(SCREENS[PATHS.rolePermissions]);
const ServicesPage = lazy(SCREENS[PATHS.services]);

function RootLayout() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

function StandalonePage() {
  return (
    <Container size="xl" py="lg">
      <Outlet />
    </Container>
  );
}

function guarded(path: MainPath, page: ReactNode) {
  return <RequirePermission permission={ROUTE_PERMISSIONS[path]}>{page}</RequirePermission>;
}

/** Every route of the panel (spec §2). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorFallback />,
    children: [
      { path: PATHS.signIn, element: <SignInPage /> },
      { path: PATHS.signUp, element: <RegisterPage /> },
      { path: PATHS.register, element: <RegisterPage /> },
      { path: PATHS.forgotPassword, element: <ForgotPasswordPage /> },
      { path: PATHS.resetPassword, element: <ResetPasswordPage /> },
      { path: PATHS.acceptInvite, element: <AcceptInvitePage /> },
      { path: PATHS.confirmEmail, element: <ConfirmEmailPage /> },
      {
        element: <RequireAuth />,
        children: [
          // Signed in with a password, two-factor still to set up: the only page such a session may use.
          { path: PATHS.twoFactorSetup, element: <TwoFactorSetupPage /> },
          {
            element: (
              <Suspense fallback={<LayoutLoading />}>
                <AppLayout />
              </Suspense>
            ),
            children: [
              { path: PATHS.dashboard, element: guarded(PATHS.dashboard, <DashboardPage />) },
              { path: PATHS.users, element: guarded(PATHS.users, <UsersPage />) },
              {
                path: MEMBER_PATH,
                element: (
                  <RequirePermission permission={ROUTE_PERMISSIONS[PATHS.users]}>
                    <MemberPage />
                  </RequirePermission>
                ),
              },
              { path: PATHS.permissions, element: guarded(PATHS.permissions, <PermissionsPage />) },
              { path: PATHS.roles, element: guarded(PATHS.roles, <RolesPage />) },
              { path: PATHS.rolePermissions, element: guarded(PATHS.rolePermissions, <RolePermissionsPage />) },
              { path: PATHS.services, element: guarded(PATHS.services, <ServicesPage />) },
              { path: PATHS.bank, element: guarded(PATHS.bank, <BankPage />) },
              { path: PATHS.rank, element: guarded(PATHS.rank, <RanksPage />) },
              { path: PATHS.membership, element: guarded(PATHS.membership, <MembershipPage />) },
              { path: PATHS.revenue, element: guarded(PATHS.revenue, <RevenuePage />) },
              { path: PATHS.royaltyIncome, element: guarded(PATHS.royaltyIncome, <RoyaltyIncomePage />) },
              { path: PATHS.rewardIncome, element: guarded(PATHS.rewardIncome, <RewardIncomePage />) },
              { path: PATHS.dailyPayout, element: guarded(PATHS.dailyPayout, <PayoutsPage />) },
              { path: PATHS.audit, element: guarded(PATHS.audit, <AuditPage />) },
              { path: PATHS.wallet, element: guarded(PATHS.wallet, <WalletPage />) },
              { path: PATHS.staff, element: guarded(PATHS.staff, <StaffPage />) },
              // Every signed-in operator: the queue with money_approve, "My requests" for all (issue 24).
              { path: PATHS.approvals, element: <ApprovalsPage /> },
              { path: PATHS.plans, element: guarded(PATHS.plans, <PlansPage />) },
              { path: PATHS.incomeSettings, element: guarded(PATHS.incomeSettings, <IncomeSettingsPage />) },
              { path: PATHS.runs, element: guarded(PATHS.runs, <RunsPage />) },
              { path: PATHS.bankTransfers, element: guarded(PATHS.bankTransfers, <BankTransfersPage />) },
              { path: PATHS.books, element: guarded(PATHS.books, <BooksPage />) },
              { path: PATHS.tdsReport, element: guarded(PATHS.tdsReport, <TdsReportPage />) },
              { path: PATHS.monthlyStatement, element: guarded(PATHS.monthlyStatement, <MonthlyStatementPage />) },
              { path: ACCOUNT_PATH, element: <AccountSecurityPage /> },
            ],
          },
          {
            // Test duplicates: sign-in only, without the layout shell.
            element: <StandalonePage />,
            children: [
              { path: '/test/users', element: guarded(PATHS.users, <UsersPage />) },
              { path: '/test/api', element: <ApiTestPage /> },
              { path: '/test/permissions', element: <PermissionsPage /> },
              { path: '/test/roles', element: <RolesPage /> },
              { path: '/test/services', element: <ServicesPage /> },
              { path: '/test/rank', element: <RanksPage /> },
              { path: '/test/bank', element: <BankPage /> },
              { path: '/test/membership', element: <MembershipListPage /> },
              { path: '/test/membership-test', element: <MembershipTestPage /> },
              { path: '/test/revenue', element: <RevenuePage /> },
              { path: '/test/royalty-income', element: <RoyaltyIncomePage /> },
              { path: '/test/reward-income', element: <RewardIncomePage /> },
              { path: '/test/daily-payout', element: <PayoutsPage /> },
              { path: '/test/wallet', element: <WalletPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to={PATHS.dashboard} replace /> },
    ],
  },
];
