import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ADMIN_ROLE, PERMISSION_NAMES, roleRequiresTwoFactor, type PermissionName } from '../../contract/permissions.ts';
import { AppError } from './errors.ts';
// The decorations this guard reads (app.config, app.database) are declared by app.ts; a program
// that reaches this file without app.ts (the e2e tests import hashToken) still needs them.
import type {} from '../app.ts';

/**
 * Who may call a route. Every /api route declares one: 'public', 'session' (any signed-in
 * account, e.g. logout), or the one permission it needs.
 */
export type Access = 'public' | 'session' | PermissionName;

export interface AuthContext {
  userId: number;
  tokenHash: string;
  /** The session's public handle ("your sessions"). */
  sessionId: number;
  name: string | null;
  fullName: string;
  email: string;
  /** The role's name, '' for an account without a role. */
  role: string;
  /** Empty while the session must still set up two-factor (stage 'enrol'). */
  permissions: ReadonlySet<string>;
  twoFactorEnabled: boolean;
  /** The role requires two-factor sign-in (roles.two_factor_required, or Admin with ADMIN_TWO_FACTOR). */
  twoFactorRequired: boolean;
  /** 'enrol': signed in with a password but two-factor must be set up before anything else. */
  stage: 'full' | 'enrol';
  lastUsedAt: Date | null;
}

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

// One round trip per request: the session, its account, and the permission names of the
// account's active role — for the role Admin every permission there is, including ones created
// later. No cache, so a role change applies to the very next request on every server copy.
// Only accounts that sign in (staff) hold sessions; an account without a role holds no permission.
const SESSION_SQL = `
  select u.user_id, u.username, u.full_name, u.email, coalesce(r.name, '') as role,
         s.id as session_id, s.stage, s.last_used_at,
         coalesce(r.two_factor_required, false) as role_requires_two_factor,
         exists (select 1 from two_factor tf where tf.user_id = u.user_id and tf.enabled_at is not null) as two_factor_enabled,
         case when r.name = '${ADMIN_ROLE}' then (select array_agg(p.name) from permissions p)
              when r.status then (select array_agg(p.name)
                                    from role_permissions rp
                                    join permissions p on p.permission_id = any(rp.permission_ids)
                                   where rp.role_id = u.role_id and rp.status)
         end as permissions
    from sessions s
    join users u on u.user_id = s.user_id
    left join roles r on r.role_id = u.role_id
   where s.token_hash = $1 and s.expires_at > now() and u.deleted_at is null and u.status and u.can_sign_in`;

interface SessionRow {
  user_id: number;
  username: string | null;
  full_name: string;
  email: string;
  role: string;
  session_id: number | string;
  stage: 'full' | 'enrol';
  last_used_at: Date | string | null;
  role_requires_two_factor: boolean;
  two_factor_enabled: boolean;
  permissions: string[] | null;
}

/** Whether an account of this role must sign in with a second factor. */
export function accountRequiresTwoFactor(app: FastifyInstance, role: string, flagged: boolean): boolean {
  return roleRequiresTwoFactor({ name: role, twoFactorRequired: flagged }, app.config.adminTwoFactor);
}

export async function loadSession(app: FastifyInstance, token: string): Promise<AuthContext | null> {
  const tokenHash = hashToken(token);
  const [row] = await app.database.query<SessionRow>(SESSION_SQL, [tokenHash]);
  if (!row) return null;
  const names = row.role === ADMIN_ROLE ? [...PERMISSION_NAMES, ...(row.permissions ?? [])] : (row.permissions ?? []);
  return {
    userId: Number(row.user_id),
    tokenHash,
    sessionId: Number(row.session_id),
    name: row.username,
    fullName: row.full_name,
    email: row.email,
    role: row.role,
    permissions: new Set(row.stage === 'enrol' ? [] : names.sort()),
    twoFactorEnabled: row.two_factor_enabled,
    twoFactorRequired: accountRequiresTwoFactor(app, row.role, row.role_requires_two_factor),
    stage: row.stage,
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
  };
}

/** "Last used" in the sessions list is kept to the minute: one write a minute per session, not one per request. */
const TOUCH_EVERY_MS = 60_000;

async function touchSession(app: FastifyInstance, auth: AuthContext): Promise<void> {
  if (auth.lastUsedAt && Date.now() - auth.lastUsedAt.getTime() < TOUCH_EVERY_MS) return;
  await app.database.query('update sessions set last_used_at = now() where token_hash = $1', [auth.tokenHash]);
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
