DROP INDEX "daily_payouts_date_status_idx";--> statement-breakpoint
CREATE INDEX "daily_payouts_date_id_idx" ON "daily_payouts" USING btree ("payout_date","id");