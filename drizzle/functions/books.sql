-- Maintains book_daily (per India business day, account and shard) in the same transaction as
-- each company leg (book_legs), as ledger_totals.sql does for the member lines. The shard is the
-- writing transaction's id mod 8, so concurrent writers to one account (every recharge credits
-- the company bank) do not queue on one row; readers add the shards up. Rows are written in a
-- fixed order (account, then day) so concurrent writers take their locks in the same order.
-- Each side is kept apart too (debit_paise: the debits, a positive figure; credit_paise; drizzle/0035),
-- so a period's debits and credits read the rollup as its balance does.
-- Reads: book_legs.created_at, account, amount_paise.

-- The company account each kind of member line is posted against (credit-positive: the leg is the
-- line's amount with the other sign; db/books.ts). The ledger before the books
-- (drizzle/0029) was posted with the same map, except that its withdrawals went to the company bank.
CREATE OR REPLACE FUNCTION public.book_account(kind text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE kind
    WHEN 'wallet_recharge' THEN 'company_bank'
    WHEN 'wallet_withdrawal' THEN 'withdrawals_payable'
    WHEN 'membership_fee' THEN 'membership_revenue'
    WHEN 'daily_payout' THEN 'daily_payout_expense'
    WHEN 'royalty' THEN 'royalty_expense'
    WHEN 'reward' THEN 'reward_expense'
    WHEN 'referral_bonus' THEN 'reward_expense'
    WHEN 'admin_transfer' THEN 'operator_credits'
    WHEN 'level_income' THEN 'level_income_expense'
    WHEN 'tds' THEN 'tds_payable'
    WHEN 'admin_charge' THEN 'admin_charge_income'
    WHEN 'external_payment' THEN 'outside_payments'
    WHEN 'recovery' THEN 'recoveries_owed'
    WHEN 'bank_return' THEN 'bank_in_transit'
    WHEN 'bank_payout' THEN 'withdrawals_payable'
  END
$function$;


CREATE OR REPLACE FUNCTION public.book_daily_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO book_daily AS d (account, day, shard, total_paise, legs, debit_paise, credit_paise)
  SELECT account, (created_at AT TIME ZONE 'Asia/Kolkata')::date, (txid_current() % 8)::smallint, sum(amount_paise), count(*),
         coalesce(-sum(amount_paise) FILTER (WHERE amount_paise < 0), 0), coalesce(sum(amount_paise) FILTER (WHERE amount_paise > 0), 0)
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (account, day, shard) DO UPDATE
    SET total_paise = d.total_paise + EXCLUDED.total_paise, legs = d.legs + EXCLUDED.legs,
        debit_paise = d.debit_paise + EXCLUDED.debit_paise, credit_paise = d.credit_paise + EXCLUDED.credit_paise;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER book_daily_insert AFTER INSERT ON public.book_legs REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION book_daily_insert();

-- The books are immutable, as the ledger is: a transfer is corrected by a new one.
CREATE OR REPLACE FUNCTION public.books_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '% is immutable: correct a transfer with a new one that names it', TG_TABLE_NAME;
END $function$;

CREATE OR REPLACE TRIGGER book_legs_immutable BEFORE DELETE OR UPDATE ON public.book_legs FOR EACH ROW EXECUTE FUNCTION books_immutable();
CREATE OR REPLACE TRIGGER transfers_immutable BEFORE DELETE OR UPDATE ON public.transfers FOR EACH ROW EXECUTE FUNCTION books_immutable();
