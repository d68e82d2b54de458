import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
});
