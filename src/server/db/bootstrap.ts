import { and, eq, isNull, sql } from 'drizzle-orm';
import { ADMIN_ROLE, PERMISSIONS, READY_ROLES, USER_ROLE } from '../../contract/permissions.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { insertUser } from '../modules/users/users.repository.ts';
import { rowsOf, type Database, type Db } from './client.ts';
import { permissions, rolePermissions, roles } from './schema/access.ts';
import { ranks, services } from './schema/catalogue.ts';
import { users } from './schema/members.ts';

/** Spec §3: Bronze … Platinum active, Diamond inactive, rankIds 100001–100005. */
/**
 * The ranks' ladder (issue 16): `position` orders it, each rank's royalty weight doubles the one
 * below, and the criteria (active direct referrals, members below, team business in paise) grow
 * with it, so a fresh install promotes, shares royalty and pays monthly rewards by rank.
 * Diamond ships inactive: an operator opens it when the network is large enough.
 */
const RANKS = [
  { name: 'Bronze', status: true, position: 1, royaltyWeight: 1, minDirect: 2, minTeam: 5, minBusinessPaise: 5_000_00, monthlyRewardPaise: 100_00 },
  { name: 'Silver', status: true, position: 2, royaltyWeight: 2, minDirect: 5, minTeam: 25, minBusinessPaise: 25_000_00, monthlyRewardPaise: 250_00 },
  { name: 'Gold', status: true, position: 3, royaltyWeight: 4, minDirect: 10, minTeam: 100, minBusinessPaise: 1_00_000_00, monthlyRewardPaise: 500_00 },
  { name: 'Platinum', status: true, position: 4, royaltyWeight: 8, minDirect: 20, minTeam: 500, minBusinessPaise: 5_00_000_00, monthlyRewardPaise: 1_000_00 },
  { name: 'Diamond', status: false, position: 5, royaltyWeight: 16, minDirect: 40, minTeam: 2_000, minBusinessPaise: 25_00_000_00, monthlyRewardPaise: 2_500_00 },
];

const SERVICES = [
  { serviceType: 'mobile_recharge', serviceName: 'Mobile Recharge', category: 'Recharge', description: 'Recharge' },
  { serviceType: 'dth_recharge', serviceName: 'DTH Recharge', category: 'Recharge', description: 'Recharge' },
  { serviceType: 'datacard_recharge', serviceName: 'Data Card Recharge', category: 'Recharge', description: 'Recharge' },
  { serviceType: 'electricity_bill', serviceName: 'Electricity Bill', category: 'BBPS', description: 'BBPS' },
  { serviceType: 'water_bill', serviceName: 'Water Bill', category: 'BBPS', description: 'BBPS' },
  { serviceType: 'gas_bill', serviceName: 'Piped Gas Bill', category: 'BBPS', description: 'BBPS' },
  { serviceType: 'broadband_bill', serviceName: 'Broadband Bill', category: 'BBPS', description: 'BBPS' },
  { serviceType: 'insurance_payment', serviceName: 'Insurance Premium Payment', category: 'BBPS', description: 'BBPS' },
];

/**
 * The data every installation needs, written once on an empty database: the permission
 * catalogue, roles Admin and User and the ready roles (READY_ROLES) with their permission sets, the ranks and services. A built-in
 * permission added by a later version is added to an existing database on its next start.
 */
export async function ensureReferenceData(database: Database): Promise<void> {
  const { db } = database;
  await db.transaction(async (tx) => {
    await tx
      .insert(permissions)
      .values(Object.entries(PERMISSIONS).map(([name, p]) => ({ name, module: p.module, description: p.description })))
      .onConflictDoNothing({ target: permissions.name });
    const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(roles);
    if (Number(n) > 0) return;
    const perms = await tx.select({ permissionId: permissions.permissionId, name: permissions.name }).from(permissions);
    const idOf = new Map(perms.map((p) => [p.name, p.permissionId]));
    const created = await tx
      .insert(roles)
      .values([
        { name: ADMIN_ROLE, status: true },
        { name: USER_ROLE, status: true },
        ...READY_ROLES.map((r) => ({ name: r.name, status: true, twoFactorRequired: r.twoFactorRequired })),
      ])
      .returning();
    const roleOf = (name: string) => created.find((r) => r.name === name)!;
    const [admin, user] = [roleOf(ADMIN_ROLE), roleOf(USER_ROLE)];
    await tx.insert(rolePermissions).values([
      { roleId: admin.roleId, roleName: ADMIN_ROLE, permissionName: 'All permissions', permissionIds: perms.map((p) => p.permissionId).sort((a, b) => a - b) },
      { roleId: user.roleId, roleName: USER_ROLE, permissionName: 'No admin access', permissionIds: [] },
      // The ready roles (issue 24): each a documented set, editable like any role.
      ...READY_ROLES.map((r) => ({
        roleId: roleOf(r.name).roleId,
        roleName: r.name,
        permissionName: `${r.name} permissions`,
        permissionIds: r.permissions.map((name) => idOf.get(name)!).sort((a, b) => a - b),
      })),
    ]);
    await tx.insert(ranks).values(RANKS);
    await tx.insert(services).values(SERVICES);
  });
}

/** What start-up did about the bootstrap administrator (main.ts prints it). */
export type AdminBootstrap =
  | { created: true; generatedPassword?: string }
  /** The account with that email exists; it is left as it is. */
  | { created: false; existing: 'this' }
  /** No account has that email, but the database has administrators already: none is created. */
  | { created: false; existing: 'others'; administrators: number };

/** The bootstrap administrator's phone, or the first free one after it (phone numbers are unique). */
const ADMIN_PHONE_FIRST = 9_000_000_000;
/** Whether a staff account already holds the username 'admin'. */
type UsernameTakenRow = { usernameTaken: boolean };

/**
 * users.phone is required and unique among live rows, but staff accounts (the bootstrap
 * administrator, invited staff) have no phone of their own: they take the first free number from
 * 9000000000 on. Pass the transaction that inserts the account.
 */
export async function firstFreeStaffPhone(db: Db): Promise<string> {
  const [row] = rowsOf<Pick<typeof users.$inferSelect, 'phone'>>(await db.execute(sql`
    select (select p::text from generate_series(${ADMIN_PHONE_FIRST}::bigint, ${ADMIN_PHONE_FIRST + 999}::bigint) p
             where not exists (select 1 from users where phone = p::text and deleted_at is null) order by p limit 1) as phone`));
  if (!row?.phone) throw new Error('No free placeholder phone number is left for a staff account');
  return row.phone;
}

/**
 * The bootstrap administrator (role Admin), created only on a database that has no live
 * administrator yet ("created on first start"): pointing a server at a database that other
 * administrators run with a different ADMIN_EMAIL creates nobody. Returns the password when one
 * was generated, so the caller can print it once; an existing account is left as it is.
 */
export async function ensureAdmin(
  database: Database,
  email: string,
  password: string | undefined,
  generate: () => string,
): Promise<AdminBootstrap> {
  const { db } = database;
  const [existing] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  if (existing) return { created: false, existing: 'this' };
  const [adminRole] = await db.select({ roleId: roles.roleId }).from(roles).where(eq(roles.name, ADMIN_ROLE));
  const [{ administrators }] = await db
    .select({ administrators: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.roleId, adminRole.roleId), isNull(users.deletedAt)));
  if (administrators > 0) return { created: false, existing: 'others', administrators };
  const phone = await firstFreeStaffPhone(db);
  const [{ usernameTaken }] = await database.query<UsernameTakenRow>(
    `select exists (select 1 from users where username = 'admin') as "usernameTaken"`,
  );
  const chosen = password ?? generate();
  await insertUser(db, {
    username: usernameTaken ? null : 'admin',
    fullName: 'System Administrator',
    email,
    phone,
    passwordHash: await hashPassword(chosen),
    canSignIn: true,
    roleId: adminRole.roleId,
    level: 0,
    companyName: 'Backoffice',
  });
  return { created: true, generatedPassword: password ? undefined : chosen };
}
