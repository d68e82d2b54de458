import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Mailer } from '../mailer.ts';

/** The signed-in account of a request, as the auth guard found it (plugins/auth.ts). */
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

// What the server puts on Fastify's objects: app.ts decorates the instance with these, the auth
// guard (plugins/auth.ts) sets `request.auth`. Declared here, beside what reads them, so that a
// program reaching this file without app.ts (an e2e test's kit) still knows them.
declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    mailer: Mailer;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/**
 * What a service needs to know about the call, as plain data: routes build it with `contextOf`
 * and pass it to `service(ctx, input)`; a service never sees a Fastify object, so it can be
 * called from a test, a script or a scheduled run the same way.
 */
export interface Ctx {
  database: Database;
  config: Config;
  mailer: Mailer;
  /** The signed-in account; null on public endpoints and in scheduled work. */
  auth: AuthContext | null;
  /** The caller's address (the client's, behind TRUST_PROXY); '' when there is no caller. */
  ip: string;
}

/** Who acted and from where: what the audit log needs of a Ctx (or of a request). */
export type Actor = Pick<Ctx, 'auth' | 'ip'>;

export function contextOf(request: FastifyRequest): Ctx {
  const { database, config, mailer } = request.server;
  return { database, config, mailer, auth: request.auth, ip: request.ip };
}

/** The signed-in account's id; the guard has already refused calls without one. */
export function actorId(ctx: Actor): number {
  if (!ctx.auth) throw new Error('This call needs a signed-in account');
  return ctx.auth.userId;
}
