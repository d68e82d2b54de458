-- Issue 24: a member's ledger on the member page, at 10,000,000 ledger rows.
-- Filtered by kind (member + kind + time, newest first, id breaking ties) it is one range of this
-- index; without a kind ledger_user_created_idx (user_id, created_at) serves the member + time
-- order. The same index answers the member's earned-to-date by kind (a sum per kind, reversal or
-- not) from the index alone: amount_paise and reversal_of ride along in INCLUDE, so a member with
-- 100,000 level income lines is summed without reading the table.
CREATE INDEX "ledger_user_kind_created_idx" ON "ledger_entries" USING btree ("user_id","kind","created_at","id") INCLUDE ("amount_paise","reversal_of");--> statement-breakpoint
-- The approval request behind a ledger line (its result names the line): a member's approved
-- requests are few, and this finds them without reading the other members' requests.
CREATE INDEX "money_requests_user_approved_idx" ON "money_requests" USING btree ("user_id","id") WHERE "money_requests"."status" = 'approved';
--> statement-breakpoint
-- The User Wallet list filtered to a kind other than recharges and withdrawals (issue 24), sorted or
-- bounded by the amount as shown: such kinds go both ways (a reversal has the opposite sign), so
-- by abs(amount_paise), with the id tie-break. The wallet kinds keep their own amount indexes.
CREATE INDEX "ledger_kind_abs_amount_idx" ON "ledger_entries" USING btree ("kind", abs("amount_paise"), "id") WHERE "ledger_entries"."kind" NOT IN ('wallet_recharge', 'wallet_withdrawal');
