-- Issue 15: one service per name and type. A database where a duplicate was already saved keeps
-- both: the later ones get their id appended to the name before the unique index is built.
UPDATE "services" s SET "service_name" = s."service_name" || ' (' || s."service_id" || ')'
WHERE EXISTS (SELECT 1 FROM "services" o WHERE o."service_id" < s."service_id"
  AND lower(btrim(regexp_replace(o."service_type", '\s+', ' ', 'g'))) = lower(btrim(regexp_replace(s."service_type", '\s+', ' ', 'g')))
  AND lower(btrim(regexp_replace(o."service_name", '\s+', ' ', 'g'))) = lower(btrim(regexp_replace(s."service_name", '\s+', ' ', 'g'))));--> statement-breakpoint
DROP INDEX "memberships_created_at_idx";--> statement-breakpoint
DROP INDEX "audit_log_created_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "services_type_name_uq" ON "services" USING btree (lower(btrim(regexp_replace("service_type", '\s+', ' ', 'g'))),lower(btrim(regexp_replace("service_name", '\s+', ' ', 'g'))));--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_account_uq" ON "bank_accounts" USING btree ("user_id","account_number","ifsc");--> statement-breakpoint
CREATE INDEX "memberships_created_at_id_idx" ON "memberships" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "memberships_amount_id_idx" ON "memberships" USING btree ("amount_paise","id");--> statement-breakpoint
CREATE INDEX "users_name_sort_idx" ON "users" USING btree (lower("full_name"),"user_id") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_email_sort_idx" ON "users" USING btree ("email","user_id") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_status_sort_idx" ON "users" USING btree ("status","user_id") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_created_sort_idx" ON "users" USING btree ("created_at","user_id") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "daily_payouts_amount_id_idx" ON "daily_payouts" USING btree ("amount_paise","id");--> statement-breakpoint
CREATE INDEX "daily_payouts_status_id_idx" ON "daily_payouts" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "ledger_fee_amount_id_idx" ON "ledger_entries" USING btree ("amount_paise","id") WHERE "ledger_entries"."kind" = 'membership_fee';--> statement-breakpoint
CREATE INDEX "ledger_recharge_amount_idx" ON "ledger_entries" USING btree ("amount_paise","id") WHERE "ledger_entries"."kind" = 'wallet_recharge';--> statement-breakpoint
CREATE INDEX "ledger_withdrawal_amount_idx" ON "ledger_entries" USING btree ("amount_paise","id" DESC NULLS FIRST) WHERE "ledger_entries"."kind" = 'wallet_withdrawal';--> statement-breakpoint
CREATE INDEX "money_requests_status_amount_idx" ON "money_requests" USING btree ("status","amount_paise","id");--> statement-breakpoint
CREATE INDEX "money_requests_status_kind_idx" ON "money_requests" USING btree ("status","kind","id");--> statement-breakpoint
CREATE INDEX "audit_log_created_id_idx" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_id_idx" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_id_idx" ON "audit_log" USING btree ("entity","id");