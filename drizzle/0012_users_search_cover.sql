-- The users page's search in its default order (user id, newest first) walks this index and finds
-- a frequent term's page without visiting the table (an index-only scan): at 1,000,000 members
-- "sharma" read 925 table pages for one page of 25, and about 10 index pages with this.
-- Drizzle's index builder has no INCLUDE, hence plain SQL (drizzle-kit does not track it).
CREATE INDEX "users_search_cover_idx" ON "users" USING btree ("user_id") INCLUDE ("full_name", "email", "phone") WHERE "deleted_at" is null;
