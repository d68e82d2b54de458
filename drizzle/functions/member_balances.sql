-- Keeps member_balances (drizzle/0036) equal to users.balance_paise: the membership lists' sort by
-- Current Amount walks member_balances_sort_idx, while balance_paise itself stays in no users
-- index (drizzle/0017: the daily payout's balance updates stay HOT). Per statement, with
-- transition tables, so a posting of a million lines costs one set-based write here; only rows
-- whose balance changed are written. Reads: users.user_id, users.balance_paise.
-- History: drizzle/0036.

CREATE OR REPLACE FUNCTION public.member_balances_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO member_balances (user_id, balance_paise) SELECT user_id, balance_paise FROM new_rows
  ON CONFLICT (user_id) DO UPDATE SET balance_paise = EXCLUDED.balance_paise;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER member_balances_insert AFTER INSERT ON public.users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_balances_insert();

CREATE OR REPLACE FUNCTION public.member_balances_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE member_balances b SET balance_paise = n.balance_paise
    FROM new_rows n JOIN old_rows o ON o.user_id = n.user_id
   WHERE b.user_id = n.user_id AND n.balance_paise IS DISTINCT FROM o.balance_paise;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER member_balances_update AFTER UPDATE ON public.users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_balances_update();
