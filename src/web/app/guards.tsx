import { useEffect, type ReactNode } from 'react';
import { Outlet, useNavigate } from 'react-router';
import type { PermissionName } from '../../contract/permissions';
import { NoAccessPage } from '../components/no-access-page';
import { PageLoader } from '../components/page-loader';
import { useAuth } from '../features/auth/auth-context';
import { PATHS } from './paths';

/** Spec §2: unauthenticated visitors are sent to the sign-in page after a short wait. */
export const SIGN_IN_REDIRECT_DELAY_MS = 300;

export function RequireAuth() {
  const { token } = useAuth();
  const navigate = useNavigate();

  useEffect(() => {
    if (token) return;
    const timer = window.setTimeout(() => navigate(PATHS.signIn, { replace: true }), SIGN_IN_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [token, navigate]);

  return token ? <Outlet /> : <PageLoader />;
}

/** The second guard: the page needs one permission of the signed-in account's role. */
export function RequirePermission({ permission, children }: { permission: PermissionName; children: ReactNode }) {
  const { permissions, loadingUser } = useAuth();
  if (loadingUser) return <PageLoader />;
  return permissions.includes(permission) ? children : <NoAccessPage />;
}
