import { ADMIN_ROLE, roleRequiresTwoFactor, USER_ROLE } from '../../../contract/permissions.ts';
import type { StaffMember } from '../../../contract/staff.ts';
import { firstFreeStaffPhone } from '../../db/bootstrap.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { mailLink } from '../../mailer.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { roleGrants, type RoleGrants } from '../roles/roles.service.ts';
import { createAccount } from '../users/users.service.ts';
import * as repo from './staff.repository.ts';

/** An invitation link works for three days, once. */
const INVITE_TTL_MS = 72 * 3600 * 1000;

const NOT_STAFF = 'Staff member not found';

async function requireStaff(db: Db, userId: number): Promise<StaffMember> {
  const found = await repo.findStaff(db, userId);
  if (!found) throw new AppError(404, NOT_STAFF);
  return found;
}

/** Members (accounts that don't sign in) are not on the Staff screen, so they answer 404 here. */
async function lockStaff(db: Db, userId: number): Promise<repo.LockedAccount> {
  const account = await repo.lockAccount(db, userId);
  if (!account?.canSignIn) throw new AppError(404, NOT_STAFF);
  return account;
}

function editorPermissions(ctx: Ctx): ReadonlySet<string> {
  return ctx.auth?.permissions ?? new Set();
}

/**
 * Whoever manages an account must hold every permission its role grants: otherwise an operator
 * with staff_manage alone could change an administrator's email, reset its password and sign in
 * as it, or switch off a colleague who outranks them.
 */
async function assertOutranks(db: Db, ctx: Ctx, account: repo.LockedAccount): Promise<void> {
  if (account.roleId === null || account.userId === ctx.auth?.userId) return;
  const role = await roleGrants(db, account.roleId);
  if (!role) return;
  const held = editorPermissions(ctx);
  const missing = role.permissions.filter((p) => !held.has(p));
  if (missing.length > 0) {
    throw new AppError(
      403,
      `${account.fullName} has the role ${role.name}, which holds permissions you do not have (${missing.join(', ')}), so you cannot change this account`,
    );
  }
}

/** The role may be given to staff by this editor: it exists, is active, is not the members' role, and grants nothing the editor lacks. */
async function assignableRole(db: Db, ctx: Ctx, roleId: number): Promise<RoleGrants> {
  const role = await roleGrants(db, roleId);
  if (!role) throw new AppError(400, `Role ${roleId} does not exist`);
  if (role.name === USER_ROLE) {
    throw new AppError(409, 'The User role is for members, not staff: choose another role');
  }
  if (!role.status) throw new AppError(409, `The role ${role.name} is inactive: activate it on the Roles screen before assigning it`);
  const held = editorPermissions(ctx);
  const missing = role.permissions.filter((p) => !held.has(p));
  if (missing.length > 0) {
    throw new AppError(403, `You can only assign a role whose permissions you hold yourself; ${role.name} also grants ${missing.join(', ')}`);
  }
  return role;
}

/** Refuses a change that would leave no active administrator who can sign in. */
async function assertNotLastAdministrator(db: Db, account: repo.LockedAccount, what: string): Promise<void> {
  const adminRoleId = await repo.lockAdminRole(db);
  if (account.roleId !== adminRoleId || !account.status || !account.passwordSet) return;
  if ((await repo.otherActiveAdministrators(db, adminRoleId, account.userId)) === 0) {
    throw new AppError(409, `${account.fullName} is the last active administrator and cannot be ${what}; make another account an administrator first`);
  }
}

/** A fresh single-use invitation link; older ones stop working. Returns the token to mail. */
async function issueInvite(db: Db, userId: number): Promise<string> {
  await repo.retireLinks(db, userId, 'invite');
  const token = newToken();
  await repo.createInviteLink(db, userId, hashToken(token), new Date(Date.now() + INVITE_TTL_MS));
  return token;
}

/** The invitation mail could not be delivered (502); `reason` is the mailer's error, for the log. */
export class InviteNotSent extends AppError {
  constructor(email: string, readonly reason: unknown) {
    super(502, `The invitation mail to ${email} could not be sent. Please try Resend invitation in a moment.`);
  }
}

/**
 * Sent after the commit: no database transaction waits on a mail server. The account is there
 * either way, so a failed delivery says to send the invitation again.
 */
async function mailInvite(ctx: Ctx, member: StaffMember, token: string) {
  try {
    await ctx.mailer.sendInvite(member.email, member.fullName, mailLink(ctx.config, 'accept-invite', token));
  } catch (err) {
    throw new InviteNotSent(member.email, err);
  }
}

export const listStaff = (ctx: Ctx, filter: repo.StaffFilter) => repo.listStaff(ctx.database.db, filter);
export const assignableRoles = (ctx: Ctx) => repo.assignableRoles(ctx.database.db, ctx.config.adminTwoFactor);

/**
 * Invites a staff member by email. An unconfirmed self-registration of that email does not stand in
 * the way (issue 22): the invitation takes it over (takeOverRegistration), so a stranger who
 * registered a future colleague's address gains nothing and blocks nothing.
 */
export async function inviteStaff(ctx: Ctx, input: { fullName: string; email: string; roleId: number }): Promise<StaffMember> {
  const { member, token } = await ctx.database.db.transaction(async (tx) => {
    const role = await assignableRole(tx, ctx, input.roleId);
    await repo.lockInvitations(tx);
    const existing = await repo.lockAccountByEmail(tx, input.email);
    if (existing && !(existing.canSignIn && existing.unconfirmed)) {
      throw new AppError(409, `An account with the email ${input.email} already exists`);
    }
    let userId: number;
    let before: StaffMember | null = null;
    if (existing) {
      before = await requireStaff(tx, existing.userId);
      await repo.takeOverRegistration(tx, existing.userId, { fullName: input.fullName, roleId: role.roleId, phone: await firstFreeStaffPhone(tx) });
      await repo.endSessions(tx, existing.userId);
      await repo.retireLinks(tx, existing.userId); // the registration's confirmation link, and any reset link
      userId = existing.userId;
    } else {
      const row = await createAccount(tx, {
        fullName: input.fullName,
        email: input.email,
        phone: await firstFreeStaffPhone(tx),
        roleId: role.roleId,
        canSignIn: true,
        level: 0,
      });
      userId = row.userId;
    }
    const token = await issueInvite(tx, userId);
    const member = await requireStaff(tx, userId);
    await audit(tx, ctx, {
      action: 'invite', entity: 'user', entityId: userId, after: member,
      ...(before ? { before: { ...before, takenOver: 'unconfirmed registration' } } : {}),
    });
    return { member, token };
  });
  await mailInvite(ctx, member, token);
  return member;
}

export async function resendInvite(ctx: Ctx, userId: number): Promise<StaffMember> {
  const { member, token } = await ctx.database.db.transaction(async (tx) => {
    const account = await lockStaff(tx, userId);
    await assertOutranks(tx, ctx, account);
    if (account.unconfirmed) {
      throw new AppError(409, `${account.fullName} registered themselves and has not confirmed their email: invite ${account.email} instead (the invitation takes the registration over)`);
    }
    if (account.passwordSet) throw new AppError(409, `${account.fullName} has already accepted the invitation and set a password`);
    if (!account.status) throw new AppError(409, `${account.fullName} is inactive: reactivate the account before inviting them again`);
    const before = await requireStaff(tx, userId);
    const token = await issueInvite(tx, userId);
    const member = await requireStaff(tx, userId);
    await audit(tx, ctx, { action: 'resend_invite', entity: 'user', entityId: userId, before, after: member });
    return { member, token };
  });
  await mailInvite(ctx, member, token);
  return member;
}

export const OWN_EMAIL = 'Change your own sign-in email under Your account (/account), where your password is asked again.';

export async function updateStaff(ctx: Ctx, userId: number, input: { fullName?: string; email?: string }): Promise<StaffMember> {
  return ctx.database.db.transaction(async (tx) => {
    const account = await lockStaff(tx, userId);
    await assertOutranks(tx, ctx, account);
    const before = await requireStaff(tx, userId);
    const emailChanges = input.email !== undefined && input.email !== account.email;
    // One's own sign-in email changes only where the password is asked again (issue 22, finding 11).
    if (emailChanges && userId === ctx.auth?.userId) throw new AppError(403, OWN_EMAIL);
    if (emailChanges && (await repo.emailTaken(tx, input.email!, userId))) {
      throw new AppError(409, `An account with the email ${input.email} already exists`);
    }
    await repo.updateAccount(tx, userId, {
      ...(input.fullName === undefined ? {} : { fullName: input.fullName }),
      ...(emailChanges ? { email: input.email } : {}),
    });
    // Links already mailed went to the old address: only the new one may set a password now.
    if (emailChanges) await repo.retireLinks(tx, userId);
    const after = await requireStaff(tx, userId);
    await audit(tx, ctx, { action: 'update', entity: 'user', entityId: userId, before, after });
    return after;
  });
}

export async function changeRole(ctx: Ctx, userId: number, roleId: number): Promise<StaffMember> {
  return ctx.database.db.transaction(async (tx) => {
    if (userId === ctx.auth?.userId) {
      throw new AppError(403, 'You cannot change your own role; ask another administrator');
    }
    const account = await lockStaff(tx, userId);
    await assertOutranks(tx, ctx, account);
    if (account.unconfirmed) {
      throw new AppError(409, `${account.fullName} has not confirmed their email address, so it may not be theirs: invite ${account.email} instead (the invitation takes the registration over)`);
    }
    const role = await assignableRole(tx, ctx, roleId);
    const before = await requireStaff(tx, userId);
    if (account.roleId === role.roleId) return before;
    if (role.name !== ADMIN_ROLE) await assertNotLastAdministrator(tx, account, 'given another role');
    await repo.updateAccount(tx, userId, { roleId: role.roleId });
    // A role that demands two-factor sign-in must not ride on sessions opened without it.
    if (roleRequiresTwoFactor(role, ctx.config.adminTwoFactor) && !before.twoFactorEnabled) await repo.endSessions(tx, userId);
    const after = await requireStaff(tx, userId);
    await audit(tx, ctx, { action: 'change_role', entity: 'user', entityId: userId, before, after });
    return after;
  });
}

export async function setStatus(ctx: Ctx, userId: number, status: boolean): Promise<StaffMember> {
  return ctx.database.db.transaction(async (tx) => {
    if (!status && userId === ctx.auth?.userId) {
      throw new AppError(403, 'You cannot deactivate your own account');
    }
    const account = await lockStaff(tx, userId);
    await assertOutranks(tx, ctx, account);
    const before = await requireStaff(tx, userId);
    if (account.status === status) return before;
    if (!status) await assertNotLastAdministrator(tx, account, 'deactivated');
    await repo.updateAccount(tx, userId, { status });
    if (!status) await repo.endSessions(tx, userId);
    const after = await requireStaff(tx, userId);
    await audit(tx, ctx, { action: status ? 'reactivate' : 'deactivate', entity: 'user', entityId: userId, before, after });
    return after;
  });
}

export async function signOutEverywhere(ctx: Ctx, userId: number) {
  return ctx.database.db.transaction(async (tx) => {
    const account = await lockStaff(tx, userId);
    await assertOutranks(tx, ctx, account);
    const ended = await repo.endSessions(tx, userId);
    const member = await requireStaff(tx, userId);
    await audit(tx, ctx, { action: 'sign_out_everywhere', entity: 'session', entityId: userId, after: { sessionsEnded: ended } });
    return { member, ended };
  });
}
