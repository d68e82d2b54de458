import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Container } from '@mantine/core';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { RouteErrorFallback } from '../components/error-fallback';
import { PageLoader } from '../components/page-loader';
import { RequireAuth, RequirePermission } from './guards';
import { LayoutLoading } from './shell/layout-loading';
import { ACCOUNT_PATH, MEMBER_PATH, PATHS } from '../lib/paths';
import { ROUTE_PERMISSIONS, type MainPath } from './paths';
import { SCREENS } from './screens';
import { loadStylesheet } from '../lib/stylesheet';

// Every screen but the sign-in page waits for the panel's whole stylesheet too: the prerendered
// sign-in page comes with its own CSS only (lib/stylesheet.ts, issue 23).
function screen(load: () => Promise<{ default: ComponentType }>) {
  return lazy(async () => (await Promise.all([load(), loadStylesheet()]))[0]);
}

// The shell is its own chunk: the sign-in route does not load it (size budget, vite-budget.ts).
const AppLayout = screen(() => import('./shell/app-layout').then((m) => ({ default: m.AppLayout })));
const SignInPage = lazy(() => import('../features/auth/signin-page'));
const RegisterPage = screen(() => import('../features/auth/register-page'));
const ForgotPasswordPage = screen(() => import('../features/auth/forgot-password-page'));
const ResetPasswordPage = screen(() => import('../features/auth/reset-password-page'));
const AcceptInvitePage = screen(() => import('../features/auth/accept-invite-page'));
const ConfirmEmailPage = screen(() => import('../features/auth/confirm-email-page'));
const TwoFactorSetupPage = screen(() => import('../features/auth/two-factor-setup-page'));
const AccountSecurityPage = screen(() => import('../features/auth/account-security-page'));
const StaffPage = screen(SCREENS[PATHS.staff]);
const ApprovalsPage = screen(SCREENS[PATHS.approvals]);
const PlansPage = screen(SCREENS[PATHS.plans]);
const IncomeSettingsPage = screen(SCREENS[PATHS.incomeSettings]);
const RunsPage = screen(SCREENS[PATHS.runs]);
const BankTransfersPage = screen(SCREENS[PATHS.bankTransfers]);
const BooksPage = screen(SCREENS[PATHS.books]);
const TdsReportPage = screen(SCREENS[PATHS.tdsReport]);
const MonthlyStatementPage = screen(SCREENS[PATHS.monthlyStatement]);
const DashboardPage = screen(SCREENS[PATHS.dashboard]);
const ApiTestPage = screen(() => import('../features/system/api-test-page'));
const AuditPage = screen(SCREENS[PATHS.audit]);
const MemberPage = screen(() => import('../features/network/member-page'));
const RevenuePage = screen(SCREENS[PATHS.revenue]);
const RoyaltyIncomePage = screen(SCREENS[PATHS.royaltyIncome]);
const RewardIncomePage = screen(SCREENS[PATHS.rewardIncome]);
const PayoutsPage = screen(SCREENS[PATHS.dailyPayout]);
const WalletPage = screen(SCREENS[PATHS.wallet]);
const UsersPage = screen(SCREENS[PATHS.users]);
const RanksPage = screen(SCREENS[PATHS.rank]);
const BankPage = screen(SCREENS[PATHS.bank]);
const MembershipPage = screen(SCREENS[PATHS.membership]);
const MembershipListPage = screen(() => import('../features/membership/membership-list-page'));
const MembershipTestPage = screen(() => import('../features/membership/membership-test-page'));
const PermissionsPage = screen(SCREENS[PATHS.permissions]);
const RolesPage = screen(SCREENS[PATHS.roles]);
const RolePermissionsPage = screen(SCREENS[PATHS.rolePermissions]);
const ServicesPage = screen(SCREENS[PATHS.services]);

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
