import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/members.ts';

export type NewUser = Omit<typeof users.$inferInsert, 'userId' | 'referralCode'>;

/** A member's own referral code, derived from the user id so it is unique and stable. */
export function referralCodeFor(userId: number): string {
  return `BO${userId}`;
}

/** Inserts a member or account with its id and referral code taken in one statement. */
export async function insertUser(db: Db, values: NewUser): Promise<typeof users.$inferSelect> {
  const result = (await db.execute(sql`select nextval(pg_get_serial_sequence('users', 'user_id')) as id`)) as unknown as {
    rows: { id: number | string }[];
  };
  const id = result.rows[0].id;
  const userId = Number(id);
  const [row] = await db.insert(users).values({ ...values, userId, referralCode: referralCodeFor(userId) }).returning();
  return row;
}
