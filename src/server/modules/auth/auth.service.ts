import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RegisterBody, SessionUser } from '../../../contract/auth.ts';
import { USER_ROLE } from '../../../contract/permissions.ts';
import { audit } from '../../plugins/audit.ts';
import { hashToken, loadSession, type AuthContext } from '../../plugins/auth.ts';
import { AppError } from '../../plugins/errors.ts';
import { insertUser } from '../users/users.repository.ts';
import * as repo from './auth.repository.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

const LONG_SESSION_MS = 30 * 24 * 3600 * 1000; // "Remember me"
const SHORT_SESSION_MS = 12 * 3600 * 1000;
const RESET_TOKEN_MS = 30 * 60 * 1000;

export function toSessionUser(auth: AuthContext): SessionUser {
  return {
    _id: String(auth.userId),
    userId: auth.userId,
    name: auth.name,
    fullName: auth.fullName,
    email: auth.email,
    role: auth.role,
    permissions: [...auth.permissions],
  };
}

async function openSession(app: FastifyInstance, request: FastifyRequest, userId: number, long: boolean) {
  const token = randomBytes(32).toString('base64url');
  await repo.createSession(app.database.db, {
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + (long ? LONG_SESSION_MS : SHORT_SESSION_MS)),
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
  });
  const auth = await loadSession(app, token);
  if (!auth) throw new AppError(403, 'Your account is inactive. Contact an administrator.');
  return { token, user: toSessionUser(auth) };
}

export async function login(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { email: string; password: string; rememberMe?: boolean },
) {
  const { db } = app.database;
  const { loginWindowMinutes: window, loginMaxFailuresPerEmail, loginMaxFailuresPerIp } = app.config;
  const emailKey = `email:${input.email}`;
  const ipKey = `ip:${request.ip}`;
  const failures = await repo.recentFailures(db, [emailKey, ipKey], window);
  if ((failures.get(emailKey) ?? 0) >= loginMaxFailuresPerEmail || (failures.get(ipKey) ?? 0) >= loginMaxFailuresPerIp) {
    throw new AppError(429, `Too many failed sign-in attempts. Please try again in ${window} minutes.`);
  }
  const account = await repo.findAccountByEmail(db, input.email);
  const ok = await verifyPassword(input.password, account?.passwordHash ?? null);
  if (!account || !ok) {
    await repo.recordFailures(db, [emailKey, ipKey]);
    const message = 'Invalid email or password';
    throw new AppError(401, message, { data: { message } });
  }
  if (!account.status) {
    const message = 'Your account is inactive. Contact an administrator.';
    throw new AppError(403, message, { data: { message } });
  }
  await repo.clearFailures(db, emailKey);
  await repo.touchLastLogin(db, account.userId);
  const session = await openSession(app, request, account.userId, input.rememberMe === true);
  await audit(db, request, { action: 'login', entity: 'session', entityId: account.userId, actorId: account.userId });
  return session;
}

export async function register(app: FastifyInstance, request: FastifyRequest, input: RegisterBody) {
  if (!app.config.allowRegistration) throw new AppError(403, 'Registration is disabled');
  const { db } = app.database;
  const taken = await repo.emailOrPhoneTaken(db, input.email, input.phone, input.name);
  if (taken) throw new AppError(409, taken);
  const roleId = await repo.roleIdByName(db, USER_ROLE);
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction(async (tx) => {
    const created = await insertUser(tx, {
      username: input.name,
      fullName: input.fullName,
      email: input.email,
      phone: input.phone,
      address: input.address,
      passwordHash,
      roleId,
      level: 1,
    });
    await audit(tx, request, { action: 'register', entity: 'user', entityId: created.userId, after: created, actorId: created.userId });
    return created;
  });
  return openSession(app, request, user.userId, false);
}

export async function logout(app: FastifyInstance, request: FastifyRequest) {
  const auth = request.auth!;
  await repo.deleteSession(app.database.db, auth.tokenHash);
  await audit(app.database.db, request, { action: 'logout', entity: 'session', entityId: auth.userId });
}

export async function forgotPassword(app: FastifyInstance, request: FastifyRequest, email: string) {
  const { db } = app.database;
  const account = await repo.findAccountByEmail(db, email);
  if (!account?.passwordHash || !account.status) return; // same answer either way: no account probing
  const token = randomBytes(32).toString('base64url');
  await repo.createPasswordReset(db, {
    tokenHash: hashToken(token),
    userId: account.userId,
    expiresAt: new Date(Date.now() + RESET_TOKEN_MS),
  });
  const origin = `${request.protocol}://${request.host}`;
  await app.mailer.sendPasswordReset(email, `${origin}/reset-password?token=${encodeURIComponent(token)}`);
}

export async function resetPassword(app: FastifyInstance, request: FastifyRequest, token: string, newPassword: string) {
  const passwordHash = await hashPassword(newPassword);
  await app.database.db.transaction(async (tx) => {
    const userId = await repo.consumePasswordReset(tx, hashToken(token));
    if (!userId) throw new AppError(400, 'Invalid or expired reset token');
    await repo.setPassword(tx, userId, passwordHash);
    await repo.deleteUserSessions(tx, userId); // a reset signs out every device
    await audit(tx, request, { action: 'reset_password', entity: 'user', entityId: userId, actorId: userId });
  });
}
