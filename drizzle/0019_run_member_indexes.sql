DROP INDEX "daily_payouts_run_idx";--> statement-breakpoint
DROP INDEX "ledger_run_idx";--> statement-breakpoint
CREATE INDEX "daily_payouts_run_idx" ON "daily_payouts" USING btree ("run_id","user_id") WHERE "daily_payouts"."run_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_run_idx" ON "ledger_entries" USING btree ("run_id","user_id","id") WHERE "ledger_entries"."run_id" is not null;