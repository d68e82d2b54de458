-- Maintains ledger_daily (per business day in Asia/Kolkata, kind and shard) and ledger_totals
-- (all time, per kind and shard), in the same transaction as each ledger row. The shard is the
-- writing transaction's id mod 8 (it was the member's id mod 8 until issue 16: an activation
-- credits 10 uplines, which took every shard of level_income, so concurrent activations queued);
-- readers add the shards up. Each is written in a fixed order (kind, then day) so that concurrent
-- writers always take the rows' locks in the same order.
-- ledger_daily keeps each side apart too (debit_paise, credit_paise; drizzle/0035), for the member
-- wallets' statement on the Books screen: two more sums over the rows the statement already groups,
-- measured within noise on a 120,000-line payout chunk (issue 25 follow-up, docs/books.md).
-- Reads: ledger_entries.created_at, ledger_entries.kind, ledger_entries.user_id,
-- ledger_entries.amount_paise.
-- History: drizzle/0001, replaced in place by drizzle/0010.

CREATE OR REPLACE FUNCTION public.ledger_daily_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO ledger_daily AS d (day, kind, shard, total_paise, entries, debit_paise, credit_paise)
  SELECT (created_at AT TIME ZONE 'Asia/Kolkata')::date, kind, (txid_current() % 8)::smallint, sum(amount_paise), count(*),
         coalesce(-sum(amount_paise) FILTER (WHERE amount_paise < 0), 0), coalesce(sum(amount_paise) FILTER (WHERE amount_paise > 0), 0)
  FROM new_rows GROUP BY 1, 2, 3 ORDER BY 2, 1, 3
  ON CONFLICT (kind, day, shard) DO UPDATE
    SET total_paise = d.total_paise + EXCLUDED.total_paise, entries = d.entries + EXCLUDED.entries,
        debit_paise = d.debit_paise + EXCLUDED.debit_paise, credit_paise = d.credit_paise + EXCLUDED.credit_paise;
  INSERT INTO ledger_totals AS t (kind, shard, total_paise, entries)
  SELECT kind, (txid_current() % 8)::smallint, sum(amount_paise), count(*)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (kind, shard) DO UPDATE
    SET total_paise = t.total_paise + EXCLUDED.total_paise, entries = t.entries + EXCLUDED.entries;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER ledger_daily_insert AFTER INSERT ON public.ledger_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_daily_insert();
