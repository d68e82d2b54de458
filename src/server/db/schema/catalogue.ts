import { sql, type SQL } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';

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
]);
