ALTER TABLE "daily_payouts" DROP CONSTRAINT "daily_payouts_user_id_users_user_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_user_id_users_user_id_fk";
