import { eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { statCounters } from './schema/system.ts';

/** A trigger-kept counter (drizzle/functions/stat_counters.sql): the sum of its shards, as `[{ n }]`. */
export const counterTotal = (db: Db, name: 'users_total' | 'users_active' | 'users_inactive' | 'membership_users') =>
  db.select({ n: sql<number>`coalesce(sum(${statCounters.value}), 0)::int8`.mapWith(Number) }).from(statCounters).where(eq(statCounters.name, name));
