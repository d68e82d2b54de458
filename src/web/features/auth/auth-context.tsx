import { createContext, useContext, useEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionUser } from '../../../contract/auth';
import { getStoredUserJson, getToken, parseStoredUser, saveUser, subscribeSession } from '../../lib/session';
import { meQuery } from './auth.api';

interface AuthState {
  token: string | null;
  user: SessionUser | null;
  permissions: readonly string[];
  /** True while the account is signed in but its details are not known yet. */
  loadingUser: boolean;
}

const AuthContext = createContext<AuthState | null>(null);
const signedOut = () => null;

/**
 * The signed-in state, read from local storage so it follows logins and logouts in other tabs.
 * When a token exists the account is fetched again for fresh permissions.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  // Signed out in the prerendered sign-in page (prerender.tsx), and while hydrating it: the stored
  // session, if any, applies right after.
  const token = useSyncExternalStore(subscribeSession, getToken, signedOut);
  const userJson = useSyncExternalStore(subscribeSession, getStoredUserJson, signedOut);
  const storedUser = useMemo(() => parseStoredUser(userJson), [userJson]);
  const queryClient = useQueryClient();
  const me = useQuery({ ...meQuery(token ?? ''), enabled: token !== null });

  useEffect(() => {
    if (me.data) saveUser(me.data);
  }, [me.data]);

  // Another account's cached data must not outlive a change of session.
  const previousToken = useRef(token);
  useEffect(() => {
    if (previousToken.current === token) return;
    previousToken.current = token;
    queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
  }, [token, queryClient]);

  const value = useMemo<AuthState>(() => {
    const user = token ? (me.data ?? storedUser) : null;
    return {
      token,
      user,
      permissions: user?.permissions ?? [],
      loadingUser: token !== null && user === null && me.isPending,
    };
  }, [token, me.data, me.isPending, storedUser]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside AuthProvider');
  return state;
}
