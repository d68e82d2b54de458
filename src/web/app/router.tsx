import { lazy, Suspense, type ReactNode } from 'react';
import { Container } from '@mantine/core';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { RouteErrorFallback } from '../components/error-fallback';
import { PageLoader } from '../components/page-loader';
import { RequireAuth, RequirePermission } from './guards';
import { PATHS, ROUTE_PERMISSIONS, type MainPath } from './paths';
import { AppLayout } from './shell/app-layout';

const SignInPage = lazy(() => import('../features/auth/signin-page'));
const RegisterPage = lazy(() => import('../features/auth/register-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page'));
const ComingSoonPage = lazy(() => import('../components/coming-soon-page'));

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
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { path: PATHS.dashboard, element: guarded(PATHS.dashboard, <DashboardPage />) },
              { path: PATHS.users, element: guarded(PATHS.users, <ComingSoonPage title="User Management" />) },
              { path: PATHS.permissions, element: guarded(PATHS.permissions, <ComingSoonPage title="Permissions" />) },
              { path: PATHS.roles, element: guarded(PATHS.roles, <ComingSoonPage title="User Roles" />) },
              { path: PATHS.rolePermissions, element: guarded(PATHS.rolePermissions, <ComingSoonPage title="Role Permissions" />) },
              { path: PATHS.services, element: guarded(PATHS.services, <ComingSoonPage title="Services" />) },
              { path: PATHS.bank, element: guarded(PATHS.bank, <ComingSoonPage title="Bank Details" />) },
              { path: PATHS.rank, element: guarded(PATHS.rank, <ComingSoonPage title="Ranks Management" />) },
              { path: PATHS.membership, element: guarded(PATHS.membership, <ComingSoonPage title="Membership" />) },
              { path: PATHS.revenue, element: guarded(PATHS.revenue, <ComingSoonPage title="Total Revenue" />) },
              { path: PATHS.royaltyIncome, element: guarded(PATHS.royaltyIncome, <ComingSoonPage title="Royalty Income" />) },
              { path: PATHS.rewardIncome, element: guarded(PATHS.rewardIncome, <ComingSoonPage title="Reward Income" />) },
              { path: PATHS.dailyPayout, element: guarded(PATHS.dailyPayout, <ComingSoonPage title="Daily Payout" />) },
              { path: PATHS.wallet, element: guarded(PATHS.wallet, <ComingSoonPage title="User Wallet" />) },
            ],
          },
          {
            // Test duplicates: sign-in only, without the layout shell.
            element: <StandalonePage />,
            children: [
              { path: '/test/users', element: <ComingSoonPage title="User Management" /> },
              { path: '/test/api', element: <ComingSoonPage title="API Connection Test" /> },
              { path: '/test/permissions', element: <ComingSoonPage title="Permissions" /> },
              { path: '/test/roles', element: <ComingSoonPage title="User Roles" /> },
              { path: '/test/services', element: <ComingSoonPage title="Services" /> },
              { path: '/test/rank', element: <ComingSoonPage title="Ranks Management" /> },
              { path: '/test/bank', element: <ComingSoonPage title="Bank Details" /> },
              { path: '/test/membership', element: <ComingSoonPage title="Membership" /> },
              { path: '/test/membership-test', element: <ComingSoonPage title="Membership API Test" /> },
              { path: '/test/revenue', element: <ComingSoonPage title="Total Revenue" /> },
              { path: '/test/royalty-income', element: <ComingSoonPage title="Royalty Income" /> },
              { path: '/test/reward-income', element: <ComingSoonPage title="Reward Income" /> },
              { path: '/test/daily-payout', element: <ComingSoonPage title="Daily Payout" /> },
              { path: '/test/wallet', element: <ComingSoonPage title="User Wallet" /> },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to={PATHS.dashboard} replace /> },
    ],
  },
];
