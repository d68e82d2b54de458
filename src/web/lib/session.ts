import type { SessionUser } from '../../contract/auth';

/** Storage keys of spec §3: the token, the signed-in user, and a second copy of the token. */
const TOKEN_KEY = 'authToken';
const USER_KEY = 'user';
const USER_TOKEN_KEY = 'userToken';
/** Same-tab changes; other tabs are heard through the browser's own `storage` event. */
const CHANGE_EVENT = 'backoffice:session';

function notify() {
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function getStoredUserJson(): string | null {
  return localStorage.getItem(USER_KEY);
}

/** A shape check without zod: this module is on the sign-in route, which loads no zod (size budget). */
function isSessionUser(value: unknown): value is SessionUser {
  const v = value as Partial<SessionUser> | null;
  return (
    typeof v === 'object' && v !== null && typeof v._id === 'string' && typeof v.userId === 'number' &&
    (v.name === null || typeof v.name === 'string') && typeof v.fullName === 'string' && typeof v.email === 'string' &&
    typeof v.role === 'string' && Array.isArray(v.permissions) && v.permissions.every((p) => typeof p === 'string') &&
    typeof v.twoFactorEnabled === 'boolean' && typeof v.twoFactorSetupRequired === 'boolean'
  );
}

export function parseStoredUser(json: string | null): SessionUser | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return isSessionUser(value) ? value : null;
  } catch {
    return null;
  }
}

export function saveSession(token: string, user: SessionUser) {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  notify();
}

export function saveUser(user: SessionUser) {
  const json = JSON.stringify(user);
  if (localStorage.getItem(USER_KEY) === json) return;
  localStorage.setItem(USER_KEY, json);
  notify();
}

export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(USER_TOKEN_KEY);
  notify();
}

export function subscribeSession(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === USER_KEY) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}
