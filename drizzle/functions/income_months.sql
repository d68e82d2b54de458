-- Maintains income_month_users and income_month_totals: royalty and reward credits (ledger rows
-- with a batch) added up per month of the batch's run date, kind, reward type ('' for royalty) and
-- receiver, and per month in all. `xmax = 0` tells a receiver's first credit of the month (a row
-- inserted, not updated), which is what counts them once in `users`.
-- income_batches_fixed refuses to change a batch's kind, reward type or run date, which place its
-- credits in the rollup.
-- Reads: ledger_entries.batch_id, ledger_entries.user_id, ledger_entries.amount_paise;
-- income_batches.batch_id, income_batches.kind, income_batches.reward_type, income_batches.run_date.
-- Issue 24: what members received, net: a daily payout's TDS and admin charge lines (no batch, the
-- run's) count in their run's batch; reversal rows (reversal_of set) count apart, under
-- reward_key || ':reversed', so a report shows a reversal as its own row; `entries` counts credits
-- (positive rows) only, a payout's deductions are not transactions of their own. Also reads
-- ledger_entries.kind, run_id, reversal_of and income_runs.batch_id.
-- History: drizzle/0007, drizzle/0026 (rebuilt with these rules).

CREATE OR REPLACE FUNCTION public.income_months_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows WHERE batch_id IS NOT NULL
                  OR (run_id IS NOT NULL AND kind IN ('tds', 'admin_charge'))) THEN
    RETURN NULL; -- wallet traffic: nothing to add up
  END IF;
  WITH credits AS (
    SELECT b.kind, coalesce(b.reward_type, '') || CASE WHEN n.reversal_of IS NULL THEN '' ELSE ':reversed' END AS reward_key,
           date_trunc('month', b.run_date)::date AS month,
           n.user_id, sum(n.amount_paise) AS paise, count(*) FILTER (WHERE n.amount_paise > 0) AS entries
      FROM new_rows n
      LEFT JOIN income_runs r ON n.batch_id IS NULL AND n.kind IN ('tds', 'admin_charge') AND r.run_id = n.run_id
      JOIN income_batches b ON b.batch_id = coalesce(n.batch_id, r.batch_id)
     GROUP BY 1, 2, 3, 4
  ), receivers AS (
    INSERT INTO income_month_users AS m (kind, reward_key, month, user_id, total_paise, entries)
    SELECT kind, reward_key, month, user_id, paise, entries FROM credits
    ON CONFLICT (kind, reward_key, month, user_id) DO UPDATE
      SET total_paise = m.total_paise + EXCLUDED.total_paise, entries = m.entries + EXCLUDED.entries
    RETURNING kind, reward_key, month, (xmax = 0) AS first_credit
  ), firsts AS (
    SELECT kind, reward_key, month, count(*) FILTER (WHERE first_credit) AS users FROM receivers GROUP BY 1, 2, 3
  )
  INSERT INTO income_month_totals AS t (kind, reward_key, month, total_paise, entries, users)
  SELECT c.kind, c.reward_key, c.month, c.paise, c.entries, coalesce(f.users, 0)
    FROM (SELECT kind, reward_key, month, sum(paise) AS paise, sum(entries) AS entries FROM credits GROUP BY 1, 2, 3) c
    LEFT JOIN firsts f ON f.kind = c.kind AND f.reward_key = c.reward_key AND f.month = c.month
  ON CONFLICT (kind, reward_key, month) DO UPDATE
    SET total_paise = t.total_paise + EXCLUDED.total_paise, entries = t.entries + EXCLUDED.entries, users = t.users + EXCLUDED.users;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER income_months_insert AFTER INSERT ON public.ledger_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION income_months_insert();

CREATE OR REPLACE FUNCTION public.income_batches_fixed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'income_batches kind, reward_type and run_date are fixed once credits may exist';
END $function$;

CREATE OR REPLACE TRIGGER income_batches_fixed BEFORE UPDATE ON public.income_batches FOR EACH ROW WHEN (((old.kind IS DISTINCT FROM new.kind) OR (old.reward_type IS DISTINCT FROM new.reward_type) OR (old.run_date IS DISTINCT FROM new.run_date))) EXECUTE FUNCTION income_batches_fixed();
