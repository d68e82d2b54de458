-- Issue 24 (an honest trail). A reversed run's payout rows stay, marked Reversed, with who reversed
-- them and why; the day's one live payout per member is what the unique index keeps (a re-run of a
-- reversed day writes its own rows beside the reversed ones).
ALTER TABLE "daily_payouts" DROP CONSTRAINT "daily_payouts_status";--> statement-breakpoint
ALTER TABLE "daily_payouts" ADD CONSTRAINT "daily_payouts_status" CHECK ("daily_payouts"."status" in ('Success', 'Failure', 'Reversed'));--> statement-breakpoint
ALTER TABLE "daily_payouts" ADD COLUMN "reversed_by" bigint;--> statement-breakpoint
ALTER TABLE "daily_payouts" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "daily_payouts" ADD COLUMN "reversal_reason" text;--> statement-breakpoint
ALTER TABLE "daily_payouts" ADD COLUMN "reversed_status" text;--> statement-breakpoint
DROP INDEX IF EXISTS "daily_payouts_user_day_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "daily_payouts_user_day_uq" ON "daily_payouts" USING btree ("user_id","payout_date") WHERE "daily_payouts"."status" <> 'Reversed';--> statement-breakpoint
-- A member's payouts whatever their status (the member-delete guard, the list's name order joins
-- members to their payouts through it).
CREATE INDEX "daily_payouts_user_idx" ON "daily_payouts" USING btree ("user_id","payout_date");--> statement-breakpoint
-- TDS beside the deductions (admin charge = deductions − TDS), kept by the run's chunks and Pay Now.
ALTER TABLE "income_runs" ADD COLUMN "tds_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "income_runs" r SET "tds_paise" = coalesce((
  select -sum(l.amount_paise) from ledger_entries l where l.run_id = r.run_id and l.kind = 'tds' and l.reversal_of is null), 0)
 WHERE r.kind = 'daily_payout';--> statement-breakpoint
-- Income reports show what members received (net of TDS and admin charge) with reversals apart:
-- the rollup is rebuilt with drizzle/functions/income_months.sql's new rules (deductions counted
-- in their run's batch, reversal rows under reward_key || ':reversed').
DELETE FROM "income_month_users";--> statement-breakpoint
DELETE FROM "income_month_totals";--> statement-breakpoint
INSERT INTO "income_month_users" (kind, reward_key, month, user_id, total_paise, entries)
SELECT b.kind, coalesce(b.reward_type, '') || case when l.reversal_of is null then '' else ':reversed' end,
       date_trunc('month', b.run_date)::date, l.user_id, sum(l.amount_paise), count(*) FILTER (WHERE l.amount_paise > 0)
  FROM ledger_entries l
  LEFT JOIN income_runs r ON l.batch_id IS NULL AND l.kind in ('tds', 'admin_charge') AND r.run_id = l.run_id
  JOIN income_batches b ON b.batch_id = coalesce(l.batch_id, r.batch_id)
 GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "income_month_totals" (kind, reward_key, month, total_paise, entries, users)
SELECT kind, reward_key, month, sum(total_paise), sum(entries), count(*) FROM income_month_users GROUP BY 1, 2, 3;
