-- Maintains payouts_daily: payout counts and amounts per day and status, kept in the writer's
-- transaction and set-based for bulk loads, so month totals and charts never scan a month of
-- payout rows.
-- Reads: daily_payouts.payout_date, daily_payouts.status, daily_payouts.amount_paise.
-- History: drizzle/0002.

CREATE OR REPLACE FUNCTION public.payouts_daily_add()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO payouts_daily AS d (day, status, payouts, total_paise)
    SELECT payout_date, status, count(*), sum(amount_paise) FROM new_rows GROUP BY 1, 2
    ON CONFLICT (day, status) DO UPDATE
      SET payouts = d.payouts + EXCLUDED.payouts, total_paise = d.total_paise + EXCLUDED.total_paise;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE payouts_daily d SET payouts = d.payouts - o.n, total_paise = d.total_paise - o.total
      FROM (SELECT payout_date, status, count(*) AS n, sum(amount_paise) AS total FROM old_rows GROUP BY 1, 2) o
     WHERE d.day = o.payout_date AND d.status = o.status;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER payouts_daily_delete AFTER DELETE ON public.daily_payouts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_daily_add();

CREATE OR REPLACE TRIGGER payouts_daily_insert AFTER INSERT ON public.daily_payouts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_daily_add();

CREATE OR REPLACE TRIGGER payouts_daily_update AFTER UPDATE ON public.daily_payouts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_daily_add();
