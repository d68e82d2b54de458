import { sql, type SQL } from 'drizzle-orm';
import { bigint, boolean, integer, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The identity of a catalogue name: case-insensitive, blanks around it ignored and runs of
 * blanks inside counted as one ('  Mobile   RECHARGE ' is 'mobile recharge'). Used by the unique
 * index and by the services module's duplicate check, so both agree.
 */
export const nameKey = (column: AnyPgColumn | SQL): SQL => sql`lower(btrim(regexp_replace(${column}, '\\s+', ' ', 'g')))`;

export const ranks = pgTable('ranks', {
  rankId: integer('rank_id').primaryKey().generatedByDefaultAsIdentity({ startWith: 100001 }),
  name: text('name').notNull().unique(),
  status: boolean('status').notNull().default(true),
  // Issue 16: the income engine's rank settings. `position` orders the ladder (higher is senior;
  // a promotion only ever moves up it); `royalty_weight` is the rank's share weight in the royalty
  // pool; a member qualifies with at least min_direct active direct referrals, min_team members
  // below them and min_business_paise of membership fees in their team. A rank whose three criteria
  // are all 0 is given by hand only.
  position: integer('position').notNull().default(0),
  royaltyWeight: integer('royalty_weight').notNull().default(0),
  minDirect: integer('min_direct').notNull().default(0),
  minTeam: integer('min_team').notNull().default(0),
  minBusinessPaise: bigint('min_business_paise', { mode: 'number' }).notNull().default(0),
  /** monthlyReward by rank: paid each month to every active member holding the rank. */
  monthlyRewardPaise: bigint('monthly_reward_paise', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const services = pgTable('services', {
  serviceId: integer('service_id').primaryKey().generatedByDefaultAsIdentity(),
  serviceType: text('service_type').notNull(),
  serviceName: text('service_name').notNull(),
  serviceIcon: text('service_icon'),
  category: text('category').notNull(),
  description: text('description').notNull().default(''),
  status: boolean('status').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // One service per name and type (issue 15 item 7): a second 'Mobile Recharge' of type
  // mobile_recharge is refused, whatever its case or spacing.
  uniqueIndex('services_type_name_uq').on(nameKey(t.serviceType), nameKey(t.serviceName)),
  // A service's name is unique within its category, Recharge or BBPS (issue 24 item 8): renaming
  // 'Water Bill' to an existing 'Electricity Bill' of another type is refused too.
  uniqueIndex('services_category_name_uq').on(t.category, nameKey(t.serviceName)),
]);
