import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { StaffMember, StaffRole } from '../../../contract/staff.ts';
import { ADMIN_ROLE, roleRequiresTwoFactor, USER_ROLE } from '../../../contract/permissions.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';
import { passwordResets, sessions } from '../../db/schema/system.ts';
import { likeEscape } from '../users/users.repository.ts';

interface StaffRow {
  user_id: number | string;
  full_name: string;
  email: string;
  role_id: number | null;
  role: string | null;
  status: boolean;
  last_login: Date | string | null;
  two_factor_enabled: boolean;
  invite_pending: boolean;
  password_set: boolean;
}

const STAFF_COLUMNS = sql`
  u.user_id, u.full_name, u.email, u.role_id, r.name as role, u.status, u.last_login,
  exists (select 1 from two_factor tf where tf.user_id = u.user_id and tf.enabled_at is not null) as two_factor_enabled,
  (u.password_hash is null and exists (
     select 1 from password_resets pr
      where pr.user_id = u.user_id and pr.purpose = 'invite' and pr.used_at is null and pr.expires_at > now()
  )) as invite_pending,
  u.password_hash is not null as password_set`;

function toStaff(r: StaffRow): StaffMember {
  return {
    userId: Number(r.user_id),
    fullName: r.full_name,
    email: r.email,
    roleId: r.role_id === null ? null : Number(r.role_id),
    role: r.role,
    status: r.status,
    lastSignIn: r.last_login === null ? null : new Date(r.last_login).toISOString(),
    twoFactorEnabled: r.two_factor_enabled,
    invitePending: r.invite_pending,
    passwordSet: r.password_set,
  };
}

export interface StaffFilter {
  q?: string;
  status?: 'active' | 'inactive';
  page: number;
  limit: number;
}

/** Staff are a few dozen rows among a million members: users_staff_idx holds exactly them. */
export async function listStaff(db: Db, f: StaffFilter): Promise<{ data: StaffMember[]; total: number }> {
  const conditions = [sql`u.can_sign_in and u.deleted_at is null`];
  if (f.status) conditions.push(sql`u.status = ${f.status === 'active'}`);
  const q = f.q?.toLowerCase();
  if (q) {
    const contains = `%${likeEscape(q)}%`;
    const id = /^\d{1,15}$/.test(q) ? Number(q) : -1;
    conditions.push(sql`(lower(u.full_name) like ${contains} or lower(u.email) like ${contains} or u.user_id = ${id})`);
  }
  const where = sql.join(conditions, sql` and `);
  const rows = rowsOf<StaffRow>(await db.execute(sql`
    select ${STAFF_COLUMNS}
      from users u left join roles r on r.role_id = u.role_id
     where ${where}
     order by u.user_id desc
     limit ${f.limit} offset ${(f.page - 1) * f.limit}`));
  const [{ total }] = rowsOf<{ total: number | string }>(
    await db.execute(sql`select count(*) as total from users u where ${where}`),
  );
  return { data: rows.map(toStaff), total: Number(total) };
}

export async function findStaff(db: Db, userId: number): Promise<StaffMember | null> {
  const [row] = rowsOf<StaffRow>(await db.execute(sql`
    select ${STAFF_COLUMNS}
      from users u left join roles r on r.role_id = u.role_id
     where u.user_id = ${userId} and u.can_sign_in and u.deleted_at is null`));
  return row ? toStaff(row) : null;
}

export interface LockedAccount {
  userId: number;
  fullName: string;
  email: string;
  roleId: number | null;
  status: boolean;
  canSignIn: boolean;
  passwordSet: boolean;
}

/** The live account, locked for the rest of the transaction (null when there is none). */
export async function lockAccount(db: Db, userId: number): Promise<LockedAccount | null> {
  const [row] = await db
    .select({
      userId: users.userId, fullName: users.fullName, email: users.email, roleId: users.roleId, status: users.status,
      canSignIn: users.canSignIn, passwordSet: sql<boolean>`${users.passwordHash} is not null`,
    })
    .from(users)
    .where(and(eq(users.userId, userId), isNull(users.deletedAt)))
    .for('update');
  return row ?? null;
}

export interface RoleGrants {
  roleId: number;
  name: string;
  status: boolean;
  twoFactorRequired: boolean;
  /**
   * Every permission the role's record names, whatever the role's or record's status (a switched
   * off set can be switched on again later); for Admin every permission there is.
   */
  permissions: string[];
}

export async function roleGrants(db: Db, roleId: number): Promise<RoleGrants | null> {
  const [row] = rowsOf<{ role_id: number; name: string; status: boolean; two_factor_required: boolean; permissions: string[] | null }>(
    await db.execute(sql`
      select r.role_id, r.name, r.status, r.two_factor_required,
             case when r.name = ${ADMIN_ROLE} then array(select p.name from permissions p order by p.name)
                  else array(select p.name from role_permissions rp
                               join permissions p on p.permission_id = any(rp.permission_ids)
                              where rp.role_id = r.role_id order by p.name)
             end as permissions
        from roles r where r.role_id = ${roleId}`),
  );
  if (!row) return null;
  return {
    roleId: Number(row.role_id), name: row.name, status: row.status, twoFactorRequired: row.two_factor_required,
    permissions: row.permissions ?? [],
  };
}

/** The roles the Staff screen offers: active ones, never the members' role. */
export async function assignableRoles(db: Db, adminTwoFactor: boolean): Promise<StaffRole[]> {
  const rows = await db
    .select({ roleId: roles.roleId, name: roles.name, twoFactorRequired: roles.twoFactorRequired })
    .from(roles)
    .where(and(eq(roles.status, true), ne(roles.name, USER_ROLE)))
    .orderBy(roles.name);
  return rows.map((r) => ({ ...r, twoFactorRequired: roleRequiresTwoFactor(r, adminTwoFactor) }));
}

/**
 * Serialises every change that could leave the installation without an administrator: two
 * operators demoting the last two administrators at once would each still see the other one.
 */
export async function lockAdminRole(db: Db): Promise<number> {
  const [row] = await db.select({ roleId: roles.roleId }).from(roles).where(eq(roles.name, ADMIN_ROLE)).for('update');
  return row.roleId;
}

/** Other accounts that can sign in as an administrator right now (active, with a password). */
export async function otherActiveAdministrators(db: Db, adminRoleId: number, exceptUserId: number): Promise<number> {
  const [{ n }] = rowsOf<{ n: number | string }>(await db.execute(sql`
    select count(*) as n from users u
     where u.role_id = ${adminRoleId} and u.can_sign_in and u.status and u.deleted_at is null
       and u.password_hash is not null and u.user_id <> ${exceptUserId}`));
  return Number(n);
}

export async function emailTaken(db: Db, email: string, exceptUserId?: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(and(
      eq(users.email, email),
      isNull(users.deletedAt),
      exceptUserId === undefined ? undefined : ne(users.userId, exceptUserId),
    ))
    .limit(1);
  return Boolean(row);
}

/** Ends every session of the account; returns how many there were. */
export async function endSessions(db: Db, userId: number): Promise<number> {
  const gone = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return gone.length;
}

/** Unused reset and invitation links of the account stop working (they were mailed to its old address, or are superseded). */
export async function retireLinks(db: Db, userId: number, purpose?: 'invite' | 'reset'): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(
      eq(passwordResets.userId, userId),
      isNull(passwordResets.usedAt),
      purpose === undefined ? undefined : eq(passwordResets.purpose, purpose),
    ));
}

export async function createInviteLink(db: Db, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.insert(passwordResets).values({ tokenHash, userId, expiresAt, purpose: 'invite' });
}
