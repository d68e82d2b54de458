import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import type { PermissionName } from '../../contract/permissions';
import { NoAccessPage } from '../components/no-access-page';
import { PageLoader } from '../components/page-loader';
import { useAuth } from '../features/auth/auth-context';
import { PATHS } from '../lib/paths';

/** Spec §2: unauthenticated visitors are sent to the sign-in page after a short wait. */
export const SIGN_IN_REDIRECT_DELAY_MS = 300;

export function RequireAuth() {
  const { token, user } = useAuth();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // The link the visitor opened: sign-in returns to it (issue 24), filters and all.
  const from = `${pathname}${search}`;

  useEffect(() => {
    if (token) return;
    const state = from === '/' ? undefined : { from };
    const timer = window.setTimeout(() => navigate(PATHS.signIn, { replace: true, state }), SIGN_IN_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [token, navigate, from]);

  if (!token) return <PageLoader />;
  // Signed in with a password, but the role requires two-factor: enrolment first, nothing else.
  if (user?.twoFactorSetupRequired && pathname !== PATHS.twoFactorSetup) {
    return <Navigate to={PATHS.twoFactorSetup} replace state={from === '/' ? undefined : { from }} />;
  }
  return <Outlet />;
}

/** The second guard: the page needs one permission of the signed-in account's role. */
export function RequirePermission({ permission, children }: { permission: PermissionName; children: ReactNode }) {
  const { permissions, loadingUser } = useAuth();
  if (loadingUser) return <PageLoader />;
  return permissions.includes(permission) ? children : <NoAccessPage />;
}
