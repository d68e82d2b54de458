-- Keeps ledger_entries immutable: a correction is a new row, never an edit or a delete.
-- Reads: nothing (refuses every UPDATE and DELETE on ledger_entries).
-- History: drizzle/0001.

CREATE OR REPLACE FUNCTION public.ledger_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'ledger_entries rows are immutable';
END $function$;

CREATE OR REPLACE TRIGGER ledger_immutable BEFORE DELETE OR UPDATE ON public.ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
