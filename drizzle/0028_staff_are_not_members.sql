-- Issue 24: staff (users.can_sign_in) are not members (docs/decisions.md). The trigger functions
-- (drizzle/functions/stat_counters.sql, user_segments.sql, search_counts.sql, downline_counts.sql)
-- now leave staff out; the counts they keep are set here to what those rules give today.
-- The dashboard's counters, recounted once (a migration, not a request) into shard 0.
DELETE FROM stat_counters WHERE name IN ('users_total', 'users_active', 'users_inactive', 'membership_users');
--> statement-breakpoint
INSERT INTO stat_counters (name, shard, value)
SELECT d.name, 0, d.value FROM (
  SELECT 'users_total' AS name, count(*) AS value FROM users WHERE deleted_at IS NULL AND NOT can_sign_in
  UNION ALL SELECT 'users_active', count(*) FROM users WHERE deleted_at IS NULL AND NOT can_sign_in AND status
  UNION ALL SELECT 'users_inactive', count(*) FROM users WHERE deleted_at IS NULL AND NOT can_sign_in AND NOT status
  UNION ALL SELECT 'membership_users', count(*) FROM memberships m JOIN users u ON u.user_id = m.user_id
             WHERE u.deleted_at IS NULL AND NOT u.can_sign_in
) d;
--> statement-breakpoint
-- The level/rank cells: staff held "Level 0" (and level 1 for self-registered accounts).
DELETE FROM user_segments;
--> statement-breakpoint
INSERT INTO user_segments (level, rank_key, live)
SELECT level, coalesce(rank_id, 0), count(*) FROM users WHERE deleted_at IS NULL AND NOT can_sign_in GROUP BY 1, 2;
--> statement-breakpoint
-- Kept search counts are a cache: dropped, the next frequent search counts itself again.
DELETE FROM search_counts;
--> statement-breakpoint
-- Live staff with a referrer leave their upline's downline counts (as a soft delete would).
SELECT downline_members_add(array_agg(user_id), array_agg(referred_by), -1) FROM users
 WHERE deleted_at IS NULL AND can_sign_in AND referred_by IS NOT NULL HAVING count(*) > 0;
--> statement-breakpoint
-- Issue 24 item 8: a service's name is unique within its category (Recharge or BBPS), compared as
-- services_type_name_uq compares names (case and spacing ignored). Existing duplicates keep the
-- first service's name; each later one gets its id appended ("Electricity Bill (7)"), so nothing
-- is lost and the operator can tell them apart and rename them.
UPDATE services s SET service_name = left(s.service_name, 90) || ' (' || s.service_id || ')'
 WHERE EXISTS (SELECT 1 FROM services o WHERE o.category = s.category AND o.service_id < s.service_id
   AND lower(btrim(regexp_replace(o.service_name, '\s+', ' ', 'g'))) = lower(btrim(regexp_replace(s.service_name, '\s+', ' ', 'g'))));
--> statement-breakpoint
CREATE UNIQUE INDEX "services_category_name_uq" ON "services" USING btree ("category", lower(btrim(regexp_replace("service_name", '\s+', ' ', 'g'))));
--> statement-breakpoint
-- The users list now reads `deleted_at is null and not can_sign_in`: its sort indexes take that
-- predicate, so the email, status and created orders stay index-only scans at a million members
-- (with the old predicate a page at offset 500,000 by email went from 73 ms to 1,139 ms: every
-- row's heap tuple read to check can_sign_in). The name order reads the heap either way.
DROP INDEX "users_name_sort_idx";
--> statement-breakpoint
DROP INDEX "users_email_sort_idx";
--> statement-breakpoint
DROP INDEX "users_status_sort_idx";
--> statement-breakpoint
DROP INDEX "users_created_sort_idx";
--> statement-breakpoint
CREATE INDEX "users_name_sort_idx" ON "users" USING btree (lower("full_name"),"user_id") WHERE "users"."deleted_at" is null and not "users"."can_sign_in";
--> statement-breakpoint
CREATE INDEX "users_email_sort_idx" ON "users" USING btree ("email","user_id") WHERE "users"."deleted_at" is null and not "users"."can_sign_in";
--> statement-breakpoint
CREATE INDEX "users_status_sort_idx" ON "users" USING btree ("status","user_id") WHERE "users"."deleted_at" is null and not "users"."can_sign_in";
--> statement-breakpoint
CREATE INDEX "users_created_sort_idx" ON "users" USING btree ("created_at","user_id") WHERE "users"."deleted_at" is null and not "users"."can_sign_in";
