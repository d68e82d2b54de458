-- Settles recoveries (issue 22, "a day is paid once, net"): what a reversal could not take back
-- from a member (run_shortfalls, added up in users.recovery_paise by the reversal) is taken from
-- the member's next credits, whoever writes them (the daily payout's chunks, level income, royalty,
-- rewards, Pay Now, wallet recharges, admin transfers), in the writer's statement's transaction.
-- Per member and inserting statement: the statement's own lines (not external_payment, which the
-- membership fee spends at once; not a reversal's compensating lines; not recoveries) are added
-- up, and when they credit the member (a daily payout's +gross −TDS −admin charge counts as its
-- net) the recovery takes least(what is owed, that net credit, the balance now), so a balance
-- never goes negative. It is taken from the member's open shortfalls oldest first (created_at,
-- then run), one ledger row of kind 'recovery' (negative, no run, no batch) per shortfall it
-- settles; run_shortfalls.recovered_paise goes up, users.balance_paise and users.recovery_paise go
-- down by the same amount. The writer already holds the member's row (its UPDATE moved the
-- balance), so this takes no lock in a new order. With nobody owing anything (the usual case) a
-- statement costs one probe of users_recovery_idx.
-- The recovery rows' own INSERT fires this again and finds no credit in them (never a recursion).
-- The recovery lines join the credit's transfer (ledger_entries.transfer_id) with their company
-- leg, recoveries_owed, so the transfer still sums to zero (issue 25).
-- Reads: ledger_entries.user_id, kind, amount_paise, reversal_of, transfer_id; users.recovery_paise,
-- users.balance_paise; run_shortfalls.shortfall_paise, recovered_paise, created_at.

-- A member's open shortfalls, oldest first, without reading the whole table.
CREATE INDEX IF NOT EXISTS run_shortfalls_open_idx ON public.run_shortfalls (user_id, created_at, run_id)
  WHERE recovered_paise < shortfall_paise;

CREATE OR REPLACE FUNCTION public.ledger_recovery_settle()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM users WHERE recovery_paise > 0) THEN
    RETURN NULL; -- nobody owes anything
  END IF;
  -- A statement without a credit that could settle (a reversal's, a debit's, the recovery rows'
  -- own, and the empty INSERT below when nothing is due: a statement trigger fires for 0 rows too).
  IF NOT EXISTS (SELECT 1 FROM new_rows WHERE amount_paise > 0 AND reversal_of IS NULL AND kind NOT IN ('external_payment', 'recovery')) THEN
    RETURN NULL;
  END IF;
  WITH debtors AS MATERIALIZED (
    SELECT user_id FROM users WHERE recovery_paise > 0
  ), credit AS MATERIALIZED (
    SELECT n.user_id, sum(n.amount_paise)::int8 AS net, max(n.transfer_id) AS transfer_id
      FROM new_rows n JOIN debtors d ON d.user_id = n.user_id
     WHERE n.reversal_of IS NULL AND n.kind NOT IN ('external_payment', 'recovery')
     GROUP BY n.user_id
    HAVING sum(n.amount_paise) > 0
  ), due AS MATERIALIZED (
    SELECT u.user_id, c.transfer_id, least(u.recovery_paise, c.net, u.balance_paise)::int8 AS take
      FROM credit c JOIN users u ON u.user_id = c.user_id
     WHERE least(u.recovery_paise, c.net, u.balance_paise) > 0
  ), open AS MATERIALIZED (
    SELECT s.run_id, s.user_id, d.transfer_id, (s.shortfall_paise - s.recovered_paise)::int8 AS owed, d.take,
           coalesce(sum(s.shortfall_paise - s.recovered_paise) OVER (PARTITION BY s.user_id ORDER BY s.created_at, s.run_id
                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::int8 AS before
      FROM due d JOIN run_shortfalls s ON s.user_id = d.user_id AND s.recovered_paise < s.shortfall_paise
  ), alloc AS MATERIALIZED (
    SELECT run_id, user_id, transfer_id, least(owed, take - before)::int8 AS amount FROM open WHERE take > before
  ), lines AS (
    INSERT INTO ledger_entries (user_id, kind, amount_paise, description, transfer_id)
    SELECT user_id, 'recovery', -amount, 'Recovery of the shortfall of reversed run ' || run_id, transfer_id
      FROM alloc ORDER BY user_id, run_id
    RETURNING id
  ), legs AS (
    -- The books (issue 25): the recovery is part of the credit's transfer; what members owe goes down.
    INSERT INTO book_legs (transfer_id, account, amount_paise)
    SELECT transfer_id, 'recoveries_owed', sum(amount)::int8 FROM alloc GROUP BY transfer_id ORDER BY transfer_id
    RETURNING id
  ), settled AS (
    UPDATE run_shortfalls s SET recovered_paise = s.recovered_paise + a.amount
      FROM alloc a WHERE s.run_id = a.run_id AND s.user_id = a.user_id
    RETURNING s.run_id
  )
  UPDATE users u SET balance_paise = u.balance_paise - t.amount, recovery_paise = u.recovery_paise - t.amount
    FROM (SELECT user_id, sum(amount)::int8 AS amount FROM alloc GROUP BY user_id) t
   WHERE u.user_id = t.user_id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER ledger_recovery_settle AFTER INSERT ON public.ledger_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_recovery_settle();
