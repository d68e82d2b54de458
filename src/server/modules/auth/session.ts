import { ADMIN_ROLE, PERMISSION_NAMES, roleRequiresTwoFactor } from '../../../contract/permissions.ts';
import type { Config } from '../../config.ts';
import type { AuthContext, Ctx } from '../../lib/context.ts';
import { hashToken } from '../../lib/tokens.ts';
import { findSession } from './auth.repository.ts';

/**
 * Sessions: a bearer token's hash and the signed-in account it stands for. The auth guard
 * (plugins/auth.ts) reads them through its per-copy cache; services and tests use them directly.
 */

/** Whether an account of this role must sign in with a second factor. */
export function accountRequiresTwoFactor(config: Pick<Config, 'adminTwoFactor'>, role: string, flagged: boolean): boolean {
  return roleRequiresTwoFactor({ name: role, twoFactorRequired: flagged }, config.adminTwoFactor);
}

/** The signed-in account of a bearer token, read from the database (no cache). */
export async function loadSession(deps: Pick<Ctx, 'database' | 'config'>, token: string): Promise<AuthContext | null> {
  return (await readSession(deps, hashToken(token)))?.auth ?? null;
}

export async function readSession(deps: Pick<Ctx, 'database' | 'config'>, tokenHash: string): Promise<{ auth: AuthContext; expiresAt: Date } | null> {
  const row = await findSession(deps.database, tokenHash);
  if (!row) return null;
  const names = row.role === ADMIN_ROLE ? [...PERMISSION_NAMES, ...(row.permissions ?? [])] : (row.permissions ?? []);
  const twoFactorRequired = accountRequiresTwoFactor(deps.config, row.role, row.roleRequiresTwoFactor);
  // A role that starts requiring two-factor (issue 22) sends its open sessions without a second
  // factor to enrolment on their very next request; an account with two-factor on is unaffected.
  const stage = row.stage === 'enrol' || (twoFactorRequired && !row.twoFactorEnabled) ? 'enrol' : 'full';
  const auth: AuthContext = {
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
  return { auth, expiresAt: row.expiresAt };
}
