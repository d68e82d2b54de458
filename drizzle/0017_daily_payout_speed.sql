ALTER TABLE "daily_payouts" DROP CONSTRAINT "daily_payouts_ledger_entry_id_ledger_entries_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_batch_id_income_batches_batch_id_fk";
--> statement-breakpoint
-- Issue 16, the daily payout run: every payout moves every paid member's users.balance_paise and
-- every membership's earned_paise once a day. With full pages each such update writes a new row
-- version on another page and an entry in each of the table's 19 (users) / 6 (memberships)
-- indexes; with half of each page free the new version stays on its page (a HOT update, no index
-- entry). balance_paise, earned_paise, days_earned are in no index (keep it so). Applies to pages
-- written from now on: an existing install rewrites the tables once with VACUUM FULL users,
-- memberships (locks them; a maintenance window) or pg_repack.
ALTER TABLE "users" SET (fillfactor = 50);
--> statement-breakpoint
ALTER TABLE "memberships" SET (fillfactor = 50);
