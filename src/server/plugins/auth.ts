import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ADMIN_ROLE, PERMISSION_NAMES, type PermissionName } from '../../contract/permissions.ts';
import { AppError } from './errors.ts';

/**
 * Who may call a route. Every /api route declares one: 'public', 'session' (any signed-in
 * account, e.g. logout), or the one permission it needs.
 */
export type Access = 'public' | 'session' | PermissionName;

export interface AuthContext {
  userId: number;
  tokenHash: string;
  name: string | null;
  fullName: string;
  email: string;
  role: string;
  permissions: ReadonlySet<string>;
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
const SESSION_SQL = `
  select u.user_id, u.username, u.full_name, u.email, coalesce(r.name, 'User') as role,
         case when r.name = '${ADMIN_ROLE}' then (select array_agg(p.name) from permissions p)
              when r.status then (select array_agg(p.name)
                                    from role_permissions rp
                                    join permissions p on p.permission_id = any(rp.permission_ids)
                                   where rp.role_id = u.role_id and rp.status)
         end as permissions
    from sessions s
    join users u on u.user_id = s.user_id
    left join roles r on r.role_id = u.role_id
   where s.token_hash = $1 and s.expires_at > now() and u.deleted_at is null and u.status`;

interface SessionRow {
  user_id: number;
  username: string | null;
  full_name: string;
  email: string;
  role: string;
  permissions: string[] | null;
}

export async function loadSession(app: FastifyInstance, token: string): Promise<AuthContext | null> {
  const tokenHash = hashToken(token);
  const [row] = await app.database.query<SessionRow>(SESSION_SQL, [tokenHash]);
  if (!row) return null;
  const names = row.role === ADMIN_ROLE ? [...PERMISSION_NAMES, ...(row.permissions ?? [])] : (row.permissions ?? []);
  return {
    userId: Number(row.user_id),
    tokenHash,
    name: row.username,
    fullName: row.full_name,
    email: row.email,
    role: row.role,
    permissions: new Set(names.sort()),
  };
}

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
    if (access !== 'session' && !auth.permissions.has(access)) {
      throw new AppError(403, `You do not have permission to do this (${access} is required)`);
    }
  });
}
