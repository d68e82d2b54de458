/**
 * Where sign-in returns to (issue 24): the link a signed-out visitor opened, path and query, so a
 * shared link keeps its filters. The sign-in guard hands it over in the history entry's state
 * (`{ from }`); only a path of this panel is followed, never another site: it must start with one
 * "/" followed by something other than "/" or "\" (`//evil.com` and `/\evil.com` are other hosts
 * to a browser), hold no control characters, and resolve to this origin.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  if (!/^\/(?![/\\])/.test(value)) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  const base = 'http://panel.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  const path = `${url.pathname}${url.search}`;
  // Sign-in itself (and the other signed-out screens) is never a place to return to.
  if (/^\/(signin|signup|register|forgot-password|reset-password|accept-invite|confirm-email|two-factor-setup)(\/|$)/.test(url.pathname)) return null;
  return path;
}

/** The state the guard puts on the sign-in entry. */
export interface ReturnState {
  from?: string;
}

/** The return path carried by a history entry's state, if it is a safe one. */
export function returnPathOf(state: unknown): string | null {
  return safeReturnPath((state as ReturnState | null)?.from);
}
