import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Access } from '../../contract/permissions.ts';
import type { AuthContext } from '../lib/context.ts';
import { AppError } from '../lib/errors.ts';
import { touchSession as touchSessionRow } from '../modules/auth/auth.repository.ts';
import { hashToken } from '../lib/tokens.ts';
import { readSession } from '../modules/auth/session.ts';
import { startSessionCache, type SessionCache } from '../modules/auth/session-cache.ts';

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its declared access, for the permission tests. */
    routeList: RouteAccess[];
  }
  interface FastifyContextConfig {
    access?: Access;
    /** A session that must still set up two-factor may call this route (me, logout, enrolment). */
    duringEnrolment?: boolean;
  }
}

/**
 * The account of a token hash: from this copy's session cache when it holds a current entry (no
 * round trip), else one prepared query whose answer the cache keeps (issue 23).
 */
async function cachedSession(app: FastifyInstance, cache: SessionCache, tokenHash: string): Promise<AuthContext | null> {
  const hit = cache.get(tokenHash);
  if (hit) return hit;
  const version = cache.version;
  const found = await readSession(app, tokenHash);
  if (!found) return null;
  cache.put(tokenHash, found.auth, found.expiresAt, version);
  return found.auth;
}

/** "Last used" in the sessions list is kept to the minute: one write a minute per session, not one per request. */
const TOUCH_EVERY_MS = 60_000;

async function touchSession(app: FastifyInstance, auth: AuthContext): Promise<void> {
  if (auth.lastUsedAt && Date.now() - auth.lastUsedAt.getTime() < TOUCH_EVERY_MS) return;
  await touchSessionRow(app.database.db, auth.tokenHash);
  // The cached entry is this object: the next minute's requests do not touch again.
  auth.lastUsedAt = new Date();
}

/** Secrets that travel in a page address (reset and invite links), kept out of request log lines. */
const URL_SECRET = /([?&]token=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(URL_SECRET, '$1[redacted]');
}

/** The request as request log lines show it: the default fields, with link tokens redacted. */
export const requestLogSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S{16,256})$/i.exec(header);
  return match ? match[1] : null;
}

/** The OpenAPI pages, registered by @fastify/swagger-ui: public documentation. */
export const DOCS_PREFIX = '/api/docs';

/** The auth changes this copy had heard when each write's handler began (Database.authChangesHeard): absent when the request never reached it. */
const heardBefore = new WeakMap<FastifyRequest, number>();

/** Methods that only read: they never wait for the other copies (`SessionCache.settle`). */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The guard: every route's declared access is checked before its body is even parsed. */
export async function registerAuth(app: FastifyInstance): Promise<void> {
  const cache = await startSessionCache(app.database, app.log);
  app.addHook('onClose', () => cache.close());
  app.decorateRequest('auth', null);
  const routeList: RouteAccess[] = [];
  app.decorate('routeList', routeList);

  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!url.startsWith('/api')) return;
    if (url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`)) {
      route.config = { ...route.config, access: 'public' };
      return;
    }
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${route.method} ${url} declares no access (config.access)`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeList.push({ method, url, access });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const token = bearerToken(request);
    const auth = token ? await cachedSession(app, cache, hashToken(token)) : null;
    if (!auth) throw new AppError(401, 'Authentication required. Please sign in.');
    request.auth = auth;
    await touchSession(app, auth);
    if (auth.stage === 'enrol' && !request.routeOptions.config?.duringEnrolment) {
      throw new AppError(403, 'Set up two-factor sign-in before you continue');
    }
    if (access !== 'session' && !auth.permissions.has(access)) {
      throw new AppError(403, `You do not have permission to do this (${access} is required)`);
    }
  });

  // A request that changed what sessions may do (a role, a permission, a sign-out, an account's
  // standing) answers once every server copy has applied it: the caller's next request is judged by
  // the change, whichever copy it reaches. On PostgreSQL a write waits only when this copy heard a
  // change announced while its handler ran (its own, or rarely another's: a wallet recharge does
  // not wait); on PGlite, which cannot tell, every write waits. No async context follows the
  // handler: on Node 20 AsyncLocalStorage would add hooks to every promise of every request. Sessions are only touched (last used) before
  // the handler, which announces nothing.
  const heard = app.database.authChangesHeard;
  if (heard) {
    app.addHook('preHandler', (request, _reply, done) => {
      if (!READS.has(request.method)) heardBefore.set(request, heard());
      done();
    });
  }
  app.addHook('onSend', async (request) => {
    if (READS.has(request.method) || !request.url.startsWith('/api')) return;
    if (heard && heardBefore.get(request) === heard()) return;
    await cache.settle().catch((error: Error) => request.log.warn({ err: error }, 'session cache: could not settle an auth change'));
  });
}
