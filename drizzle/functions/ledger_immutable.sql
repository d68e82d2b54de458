-- Keeps ledger_entries immutable: a correction is a new row, never an edit or a delete.
-- Reads: nothing (refuses every UPDATE and DELETE on ledger_entries); users_keep_money_rows below.
-- History: drizzle/0001.

CREATE OR REPLACE FUNCTION public.ledger_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'ledger_entries rows are immutable';
END $function$;

CREATE OR REPLACE TRIGGER ledger_immutable BEFORE DELETE OR UPDATE ON public.ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_immutable();

-- A member with money rows is never deleted: ledger_entries.user_id and daily_payouts.user_id have no
-- foreign key since drizzle/0021 (the daily payout's 70,000 checks per chunk), so this refuses
-- what the foreign keys refused. Reads: ledger_entries.user_id, daily_payouts.user_id (their indexes).
CREATE OR REPLACE FUNCTION public.users_keep_money_rows()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_entries WHERE user_id = OLD.user_id)
     OR EXISTS (SELECT 1 FROM daily_payouts WHERE user_id = OLD.user_id) THEN
    RAISE EXCEPTION 'member % has ledger entries or payouts and cannot be deleted', OLD.user_id;
  END IF;
  RETURN OLD;
END $function$;

CREATE OR REPLACE TRIGGER users_keep_money_rows BEFORE DELETE ON public.users FOR EACH ROW EXECUTE FUNCTION users_keep_money_rows();
