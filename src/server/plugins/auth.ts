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
 * The account of a token hash the cache does not hold: one prepared query whose answer the cache
 * keeps (issue 23). A held one is read from this copy's cache without a round trip.
 */
async function readCachedSession(app: FastifyInstance, cache: SessionCache, tokenHash: string): Promise<AuthContext | null> {
  const version = cache.version;
  const found = await readSession(app, tokenHash);
  if (!found) return null;
  cache.put(tokenHash, found.auth, found.expiresAt, version);
  return found.auth;
}

/** "Last used" in the sessions list is kept to the minute: one write a minute per session, not one per request. */
const TOUCH_EVERY_MS = 60_000;

const touchDue = (auth: AuthContext) => !auth.lastUsedAt || Date.now() - auth.lastUsedAt.getTime() >= TOUCH_EVERY_MS;

async function touchSession(app: FastifyInstance, auth: AuthContext): Promise<void> {
  if (!touchDue(auth)) return;
  await touchSessionRow(app.database.db, auth.tokenHash);
  // The cached entry is this object: the next minute's requests do not touch again.
  auth.lastUsedAt = new Date();
}

/** Why `auth` may not call a route that needs `access` (undefined when it may); sets request.auth. */
function refusal(request: FastifyRequest, auth: AuthContext | null, access: Access): AppError | undefined {
  if (!auth) return new AppError(401, 'Authentication required. Please sign in.');
  request.auth = auth;
  if (auth.stage === 'enrol' && !request.routeOptions.config?.duringEnrolment) {
    return new AppError(403, 'Set up two-factor sign-in before you continue');
  }
  if (access !== 'session' && !auth.permissions.has(access)) {
    return new AppError(403, `You do not have permission to do this (${access} is required)`);
  }
  return undefined;
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

  // A callback hook: a session this copy holds, used within the minute (nearly every request), is
  // judged without a promise; otherwise it is read (or its "last used" written) first.
  app.addHook('onRequest', (request, _reply, done) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return done();
    const token = bearerToken(request);
    const tokenHash = token ? hashToken(token) : null;
    const hit = tokenHash ? cache.get(tokenHash) : undefined;
    if (hit && !touchDue(hit)) return done(refusal(request, hit, access));
    (async () => {
      const auth = tokenHash ? (hit ?? (await readCachedSession(app, cache, tokenHash))) : null;
      if (auth) await touchSession(app, auth);
      return refusal(request, auth, access);
    })().then(done, done);
  });

  // A request that changed what sessions may do (a role, a permission, a sign-out, an account's
  // standing) answers once every server copy has applied it: the caller's next request is judged by
  // the change, whichever copy it reaches. On PostgreSQL a write waits only when this copy heard a
  // change announced while its handler ran (its own, or rarely another's: a wallet recharge does
  // not wait); on PGlite, which cannot tell, every write waits. No async context follows the
  // handler: on Node 20 AsyncLocalStorage would add hooks to every promise of every request.
  // Sessions are only touched (last used) before the handler, which announces nothing.
  const heard = app.database.authChangesHeard;
  if (heard) {
    app.addHook('preHandler', (request, _reply, done) => {
      if (!READS.has(request.method)) heardBefore.set(request, heard());
      done();
    });
  }
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (READS.has(request.method) || !request.url.startsWith('/api')) return done(null, payload);
    if (heard && heardBefore.get(request) === heard()) return done(null, payload);
    cache.settle()
      .catch((error: Error) => request.log.warn({ err: error }, 'session cache: could not settle an auth change'))
      .then(() => done(null, payload));
  });
}
