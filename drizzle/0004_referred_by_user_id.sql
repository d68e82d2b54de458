DROP INDEX "users_referred_by_idx";--> statement-breakpoint
CREATE INDEX "users_referred_by_idx" ON "users" USING btree ("referred_by","user_id");