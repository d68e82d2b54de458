import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ADMIN_ROLE, PERMISSION_NAMES, roleRequiresTwoFactor, type Access } from '../../contract/permissions.ts';
import type { Config } from '../config.ts';
import type { AuthContext, Ctx } from '../lib/context.ts';
import { AppError } from '../lib/errors.ts';
import { findSession, touchSession as touchSessionRow } from '../modules/auth/auth.repository.ts';
// The decorations this guard reads (app.config, app.database) are declared by app.ts; a program
// that reaches this file without app.ts (the e2e tests import hashToken) still needs them.
import type {} from '../app.ts';

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
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether an account of this role must sign in with a second factor. */
export function accountRequiresTwoFactor(config: Pick<Config, 'adminTwoFactor'>, role: string, flagged: boolean): boolean {
  return roleRequiresTwoFactor({ name: role, twoFactorRequired: flagged }, config.adminTwoFactor);
}

/**
 * The signed-in account of a bearer token: one prepared round trip per request, and no cache, so
 * a role change applies to the very next request on every server copy.
 */
export async function loadSession(deps: Pick<Ctx, 'database' | 'config'>, token: string): Promise<AuthContext | null> {
  const tokenHash = hashToken(token);
  const row = await findSession(deps.database, tokenHash);
  if (!row) return null;
  const names = row.role === ADMIN_ROLE ? [...PERMISSION_NAMES, ...(row.permissions ?? [])] : (row.permissions ?? []);
  const twoFactorRequired = accountRequiresTwoFactor(deps.config, row.role, row.roleRequiresTwoFactor);
  // A role that starts requiring two-factor (issue 22) sends its open sessions without a second
  // factor to enrolment on their very next request; an account with two-factor on is unaffected.
  const stage = row.stage === 'enrol' || (twoFactorRequired && !row.twoFactorEnabled) ? 'enrol' : 'full';
  return {
    userId: row.userId,
    tokenHash,
    sessionId: row.sessionId,
    name: row.username,
    fullName: row.fullName,
    email: row.email,
    role: row.role,
    permissions: new Set(stage === 'enrol' ? [] : names.sort()),
    twoFactorEnabled: row.twoFactorEnabled,
    twoFactorRequired,
    stage,
    lastUsedAt: row.lastUsedAt,
  };
}

/** "Last used" in the sessions list is kept to the minute: one write a minute per session, not one per request. */
const TOUCH_EVERY_MS = 60_000;

async function touchSession(app: FastifyInstance, auth: AuthContext): Promise<void> {
  if (auth.lastUsedAt && Date.now() - auth.lastUsedAt.getTime() < TOUCH_EVERY_MS) return;
  await touchSessionRow(app.database.db, auth.tokenHash);
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

/** The guard: every route's declared access is checked before its body is even parsed. */
export function registerAuth(app: FastifyInstance): void {
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
    const auth = token ? await loadSession(app, token) : null;
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
}
