import type { FastifyInstance } from 'fastify';

/** A stored password hash (passwords.ts: `scrypt$N$r$p$salt$hash`). */
const PASSWORD_HASH = /scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+/;
/** Field names that must never reach a client, whatever their value. */
const SECRET_FIELD = /"(password|passwordHash|password_hash|tokenHash|token_hash)"\s*:/;
/** The routes that hand a new session token to the account that signed in or registered. */
const ISSUES_TOKEN = /^\/api\/(Adminlogin|register)(\?|$)/;

export interface SecretWatch {
  /** Tokens issued so far (sessions and password-reset links): no later response may contain one. */
  readonly tokens: Set<string>;
  readonly leaks: string[];
  scanned: number;
  /** Returns what in this text would leak a secret, or null. */
  check(text: string): string | null;
}

export function secretWatch(): SecretWatch {
  const watch: SecretWatch = {
    tokens: new Set(),
    leaks: [],
    scanned: 0,
    check(text) {
      if (PASSWORD_HASH.test(text)) return 'a password hash';
      const field = SECRET_FIELD.exec(text);
      if (field) return `a "${field[1]}" field`;
      for (const token of watch.tokens) if (text.includes(token)) return `the token ${token.slice(0, 6)}…`;
      return null;
    },
  };
  return watch;
}

function issuedToken(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { token?: unknown; data?: { token?: unknown } };
    const token = parsed.data?.token ?? parsed.token;
    return typeof token === 'string' ? token : null;
  } catch {
    return null;
  }
}

/**
 * Scans every response body the app sends (createTestApp installs it, so every API suite is
 * covered) for a password hash, a secret field, or a token issued earlier; the one response
 * that issues a session token may of course carry it.
 */
export function scanResponses(app: FastifyInstance, watch: SecretWatch): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // The OpenAPI description names the password fields of the sign-in schemas, with no values.
    if (request.url.startsWith('/api/docs')) return payload;
    const text = payload.toString();
    watch.scanned += 1;
    const issues = ISSUES_TOKEN.test(request.url) && reply.statusCode < 300 ? issuedToken(text) : null;
    const leak = watch.check(issues ? text.replace(issues, '') : text);
    if (leak) watch.leaks.push(`${request.method} ${request.url} → ${reply.statusCode} contains ${leak}`);
    if (issues) watch.tokens.add(issues);
    return payload;
  });
}
