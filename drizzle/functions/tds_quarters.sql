-- Maintains tds_quarter_members (the members with TDS in each quarter of the Indian financial year)
-- and tds_quarter_totals (per quarter and shard: members, gross paid with a deduction, TDS, and the
-- TDS at the no-PAN rate), for the TDS report (docs/tax.md), in the same transaction as the ledger
-- lines, for every writer of `tds` lines but one: the daily payout's chunk keeps them for its own
-- lines (daily-payout.ts: it knows each member's PAN, and enters a member only on its membership's
-- first deduction of the quarter, so the hot path does no per-member work here) and says so with
-- the transaction-local setting backoffice.tds_rollup_by_chunk = 'on' around its posting.
-- Here (Pay Now of a failed payout, a run's reversal, anything else): per member, run and India day
-- of the payment, the gross (its daily_payout lines) and the TDS (its tds lines); a reversal line
-- counts as the whole line it reverses, on that line's day: a reversed payout leaves the quarter it
-- was paid in, whenever it is reversed, even when its credit could not all be taken back (the
-- shortfall is a recovery, not an amount paid). The section: the nearer of the run's two rates
-- (income_runs.state tdsBp, tdsWithoutPanBp); when they are the same or unknown, the member's PAN
-- now. Each member's TDS of the quarter after the statement is read from its own lines
-- (ledger_user_kind_created_idx, reversals by ledger_reversal_of_uq): not zero, it is in the set;
-- zero, it leaves it; `members` moves by what was inserted or deleted. The shard is the writing
-- transaction's id mod 8; readers add the shards up. Rows are written in (quarter, user) order.
-- Reads: ledger_entries.kind, user_id, run_id, amount_paise, created_at, reversal_of, id;
-- income_runs.state; users.pan.
-- History: drizzle/0034 (tables, and the rollup of the ledger before it).

CREATE OR REPLACE FUNCTION public.tds_quarter_of(day date)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN extract(month FROM day) < 4
              THEN (extract(year FROM day)::int - 1) * 10 + 4
              ELSE extract(year FROM day)::int * 10 + (extract(month FROM day)::int - 1) / 3
         END
$function$;

CREATE OR REPLACE FUNCTION public.tds_quarters_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF coalesce(current_setting('backoffice.tds_rollup_by_chunk', true), '') = 'on'
     OR NOT EXISTS (SELECT 1 FROM new_rows WHERE kind = 'tds') THEN
    RETURN NULL; -- the daily payout's chunk keeps the rollup itself; or no deduction in this statement
  END IF;
  WITH days AS MATERIALIZED (
    SELECT n.user_id, n.run_id, (coalesce(o.created_at, n.created_at) AT TIME ZONE 'Asia/Kolkata')::date AS day,
           coalesce(sum(CASE WHEN n.reversal_of IS NULL THEN n.amount_paise ELSE -o.amount_paise END) FILTER (WHERE n.kind = 'daily_payout'), 0) AS gross,
           -coalesce(sum(CASE WHEN n.reversal_of IS NULL THEN n.amount_paise ELSE -o.amount_paise END) FILTER (WHERE n.kind = 'tds'), 0) AS tds
      FROM new_rows n
      -- By its key, only for a reversal line (a join would be planned as a hash of the whole ledger).
      LEFT JOIN LATERAL (SELECT x.created_at, x.amount_paise FROM ledger_entries x
                          WHERE n.reversal_of IS NOT NULL AND x.id = n.reversal_of) o ON true
     WHERE n.kind IN ('tds', 'daily_payout')
     GROUP BY 1, 2, 3
    HAVING count(*) FILTER (WHERE n.kind = 'tds') > 0
  ), runs AS MATERIALIZED (
    SELECT r.run_id, (r.state->>'tdsBp')::int8 AS pan_bp, (r.state->>'tdsWithoutPanBp')::int8 AS nopan_bp
      FROM income_runs r WHERE r.run_id IN (SELECT DISTINCT run_id FROM days)
  ), members AS MATERIALIZED (
    SELECT tds_quarter_of(d.day) AS quarter, d.user_id, sum(d.gross)::int8 AS gross, sum(d.tds)::int8 AS tds,
           coalesce(sum(d.tds) FILTER (WHERE
             CASE WHEN r.pan_bp IS NOT NULL AND r.nopan_bp IS NOT NULL AND r.pan_bp <> r.nopan_bp
                  THEN abs(d.tds * 10000 - d.gross * r.nopan_bp) < abs(d.tds * 10000 - d.gross * r.pan_bp)
                  ELSE NOT EXISTS (SELECT 1 FROM users u WHERE u.user_id = d.user_id AND u.pan IS NOT NULL)
             END), 0)::int8 AS nopan
      FROM days d LEFT JOIN runs r ON r.run_id = d.run_id
     GROUP BY 1, 2
  ), now_has AS MATERIALIZED (
    -- Each member's TDS of the quarter after this statement, from its own lines.
    SELECT m.quarter, m.user_id, coalesce((
             SELECT -sum(l.amount_paise + coalesce(r.amount_paise, 0))
               FROM ledger_entries l
               LEFT JOIN ledger_entries r ON r.reversal_of = l.id
              WHERE l.user_id = m.user_id AND l.kind = 'tds' AND l.reversal_of IS NULL
                AND l.created_at >= (make_date(m.quarter / 10 + CASE WHEN m.quarter % 10 = 4 THEN 1 ELSE 0 END,
                                               CASE WHEN m.quarter % 10 = 4 THEN 1 ELSE (m.quarter % 10) * 3 + 1 END, 1)::timestamp AT TIME ZONE 'Asia/Kolkata')
                AND l.created_at < ((make_date(m.quarter / 10 + CASE WHEN m.quarter % 10 = 4 THEN 1 ELSE 0 END,
                                               CASE WHEN m.quarter % 10 = 4 THEN 1 ELSE (m.quarter % 10) * 3 + 1 END, 1) + interval '3 months')::timestamp AT TIME ZONE 'Asia/Kolkata')
           ), 0) <> 0 AS has
      FROM members m
  ), entered AS (
    INSERT INTO tds_quarter_members AS t (quarter, user_id)
    SELECT quarter, user_id FROM now_has WHERE has ORDER BY 1, 2
    ON CONFLICT (quarter, user_id) DO NOTHING
    RETURNING t.quarter
  ), went AS (
    DELETE FROM tds_quarter_members t USING now_has h
     WHERE NOT h.has AND t.quarter = h.quarter AND t.user_id = h.user_id
    RETURNING t.quarter
  ), moved AS (
    SELECT quarter, sum(n)::int8 AS members
      FROM (SELECT quarter, 1 AS n FROM entered UNION ALL SELECT quarter, -1 FROM went) x GROUP BY 1
  )
  INSERT INTO tds_quarter_totals AS t (quarter, shard, members, gross_paise, tds_paise, tds_without_pan_paise)
  SELECT s.quarter, (txid_current() % 8)::smallint, coalesce(v.members, 0), s.gross, s.tds, s.nopan
    FROM (SELECT quarter, sum(gross)::int8 AS gross, sum(tds)::int8 AS tds, sum(nopan)::int8 AS nopan FROM members GROUP BY 1) s
    LEFT JOIN moved v ON v.quarter = s.quarter
   ORDER BY 1, 2
  ON CONFLICT (quarter, shard) DO UPDATE
    SET members = t.members + EXCLUDED.members, gross_paise = t.gross_paise + EXCLUDED.gross_paise,
        tds_paise = t.tds_paise + EXCLUDED.tds_paise, tds_without_pan_paise = t.tds_without_pan_paise + EXCLUDED.tds_without_pan_paise;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER tds_quarters_insert AFTER INSERT ON public.ledger_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tds_quarters_insert();
