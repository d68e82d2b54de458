-- Issue 24: the membership lists sort by Current Amount (the member's wallet balance). The daily
-- payout moves every paid member's users.balance_paise, and drizzle/0017 keeps balance_paise out
-- of every users index so that those updates stay HOT (no entry in the table's 19 indexes). The
-- sort key lives beside it instead: member_balances, one narrow row per account with its own
-- (balance_paise, user_id) index, kept equal to users.balance_paise by the statement triggers of
-- drizzle/functions/member_balances.sql (one set-based write per statement that moves balances).
-- The name sort needs nothing new: users_name_sort_idx (lower(full_name), user_id) of live members.
CREATE TABLE "member_balances" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"balance_paise" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_balances" ADD CONSTRAINT "member_balances_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "member_balances" ("user_id", "balance_paise") SELECT "user_id", "balance_paise" FROM "users";
--> statement-breakpoint
CREATE INDEX "member_balances_sort_idx" ON "member_balances" USING btree ("balance_paise","user_id");
