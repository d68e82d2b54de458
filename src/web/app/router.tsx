import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { Container } from '@mantine/core';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { RouteErrorFallback } from '../components/error-fallback';
import { PageLoader } from '../components/page-loader';
import { RequireAuth, RequirePermission } from './guards';
import { LayoutLoading } from './shell/layout-loading';
import { ACCOUNT_PATH, MEMBER_PATH, PATHS } from '../lib/paths';
import { ROUTE_PERMISSIONS, type MainPath } from './paths';
import { arrivedScreen, preloadScreen } from './screens';
import { loadStylesheet } from '../lib/stylesheet';

// Every screen but the sign-in page waits for the panel's whole stylesheet too: the prerendered
// sign-in page comes with its own CSS only (lib/stylesheet.ts, issue 23).
function screen(load: () => Promise<{ default: ComponentType }>) {
  return lazy(async () => (await Promise.all([load(), loadStylesheet()]))[0]);
}

/**
 * A sidebar screen (app/screens.ts). Once its code has arrived (the shell preloads it, and a link
 * pointed at loads its own) it renders at once. A lazy component suspends on its first render even
 * then, and the page's Suspense boundary, new with each address (app-layout.tsx), shows its loader,
 * which React then keeps for at least 300 ms: the users page's rows came 420 ms after the click
 * instead of 210–240 (issue 23). The choice is made once per visit, so a page never mounts twice.
 */
function sidebarScreen(path: MainPath) {
  const Lazy = screen(() => preloadScreen(path));
  return function SidebarScreen() {
    const [Page] = useState(() => arrivedScreen(path) ?? Lazy);
    return <Page />;
  };
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
const StaffPage = sidebarScreen(PATHS.staff);
const ApprovalsPage = sidebarScreen(PATHS.approvals);
const PlansPage = sidebarScreen(PATHS.plans);
const IncomeSettingsPage = sidebarScreen(PATHS.incomeSettings);
const RunsPage = sidebarScreen(PATHS.runs);
const BankTransfersPage = sidebarScreen(PATHS.bankTransfers);
const BooksPage = sidebarScreen(PATHS.books);
const TdsReportPage = sidebarScreen(PATHS.tdsReport);
const MonthlyStatementPage = sidebarScreen(PATHS.monthlyStatement);
const DashboardPage = sidebarScreen(PATHS.dashboard);
const ApiTestPage = screen(() => import('../features/system/api-test-page'));
const AuditPage = sidebarScreen(PATHS.audit);
const MemberPage = screen(() => import('../features/network/member-page'));
const RevenuePage = sidebarScreen(PATHS.revenue);
const RoyaltyIncomePage = sidebarScreen(PATHS.royaltyIncome);
const RewardIncomePage = sidebarScreen(PATHS.rewardIncome);
const PayoutsPage = sidebarScreen(PATHS.dailyPayout);
const WalletPage = sidebarScreen(PATHS.wallet);
const UsersPage = sidebarScreen(PATHS.users);
const RanksPage = sidebarScreen(PATHS.rank);
const BankPage = sidebarScreen(PATHS.bank);
const MembershipPage = sidebarScreen(PATHS.membership);
const MembershipListPage = screen(() => import('../features/membership/membership-list-page'));
const MembershipTestPage = screen(() => import('../features/membership/membership-test-page'));
const PermissionsPage = sidebarScreen(PATHS.permissions);
const RolesPage = sidebarScreen(PATHS.roles);
const RolePermissionsPage = sidebarScreen(PATHS.rolePermissions);
const ServicesPage = sidebarScreen(PATHS.services);

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
