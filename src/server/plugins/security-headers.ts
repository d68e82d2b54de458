import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** helmet's options for every answer: the panel is served from the same origin, never framed. */
const OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      scriptSrc: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
};

/**
 * helmet's headers, worked out once: with these options they do not depend on the request, so
 * each answer gets the same header object instead of helmet's middleware parsing its directives
 * again on every request (issue 23: about 2 % of a read's CPU).
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(OPTIONS)({} as never, res as never, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * A content security policy that also lets a page run its own inline scripts, each named by the
 * SHA-256 of its text (a prerendered page's colour-scheme script): nothing else inline runs.
 */
export function allowingInlineScripts(csp: string, scripts: string[]): string {
  if (scripts.length === 0) return csp;
  const hashes = scripts.map((text) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`);
  return csp.replace(/(^|;)script-src ([^;]*)/, (_all, start: string, sources: string) => `${start}script-src ${sources} ${hashes.join(' ')}`);
}

export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
