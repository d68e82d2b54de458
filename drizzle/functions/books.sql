-- Maintains book_daily (per India business day, account and shard) in the same transaction as
-- each company leg (book_legs), as ledger_totals.sql does for the member lines. The shard is the
-- writing transaction's id mod 8, so concurrent writers to one account (every recharge credits
-- the company bank) do not queue on one row; readers add the shards up. Rows are written in a
-- fixed order (account, then day) so concurrent writers take their locks in the same order.
-- Reads: book_legs.created_at, account, amount_paise.

CREATE OR REPLACE FUNCTION public.book_daily_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO book_daily AS d (account, day, shard, total_paise, legs)
  SELECT account, (created_at AT TIME ZONE 'Asia/Kolkata')::date, (txid_current() % 8)::smallint, sum(amount_paise), count(*)
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (account, day, shard) DO UPDATE
    SET total_paise = d.total_paise + EXCLUDED.total_paise, legs = d.legs + EXCLUDED.legs;
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

CREATE OR REPLACE TRIGGER book_legs_immutable BEFORE UPDATE OR DELETE ON public.book_legs FOR EACH ROW EXECUTE FUNCTION books_immutable();
CREATE OR REPLACE TRIGGER transfers_immutable BEFORE UPDATE OR DELETE ON public.transfers FOR EACH ROW EXECUTE FUNCTION books_immutable();
