-- Issue 25, the TDS report at scale (docs/tax.md): the members with TDS in each quarter of the
-- Indian financial year, and per quarter the totals (members, gross paid with a deduction, TDS, TDS
-- at the no-PAN rate), kept in the same transaction as the ledger lines — by the daily payout's
-- chunk for its own lines (daily-payout.ts), by a statement trigger on ledger_entries for every
-- other writer (drizzle/functions/tds_quarters.sql) — so the report's page and totals never add up
-- a quarter of `tds` lines (about 60 million at 1,000,000 members).
-- `quarter` is the financial year's first calendar year × 10 + the quarter (20261 = Apr–Jun 2026),
-- of the line's India day (a reversal line: of the line it reverses).
CREATE TABLE IF NOT EXISTS "tds_quarter_members" (
	"quarter" integer NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "tds_quarter_members_pk" PRIMARY KEY("quarter","user_id")
);
--> statement-breakpoint
-- The last quarter a membership had TDS deducted by the run (null: not known): the chunk enters a
-- member in the quarter's set only on the membership's first deduction of the quarter.
ALTER TABLE "memberships" ADD COLUMN IF NOT EXISTS "tds_quarter" integer;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "tds_quarter_totals" (
	"quarter" integer NOT NULL,
	"shard" smallint NOT NULL,
	"members" bigint DEFAULT 0 NOT NULL,
	"gross_paise" bigint DEFAULT 0 NOT NULL,
	"tds_paise" bigint DEFAULT 0 NOT NULL,
	"tds_without_pan_paise" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "tds_quarter_totals_pk" PRIMARY KEY("quarter","shard")
);
--> statement-breakpoint
-- The quarter of an India day (the same as drizzle/functions/tds_quarters.sql, needed here first).
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
--> statement-breakpoint
-- What the ledger holds already, with the trigger's rules: per member, run and India day of the
-- payment its gross (daily_payout) and TDS, a reversal line counted as the whole line it reverses,
-- on the day of that line; the section from the run's two rates (the nearer), or the member's PAN
-- now when the rates are the same or unknown. Then per quarter and member, and per quarter.
CREATE TEMP TABLE "tds_rebuilt" AS
SELECT tds_quarter_of(d.day) AS quarter, d.user_id, sum(d.gross)::int8 AS gross, sum(d.tds)::int8 AS tds,
       coalesce(sum(d.tds) FILTER (WHERE d.without_pan), 0)::int8 AS nopan
  FROM (
    SELECT d.*,
           CASE WHEN (r.state->>'tdsBp') IS NOT NULL AND (r.state->>'tdsWithoutPanBp') IS NOT NULL
                     AND (r.state->>'tdsBp')::int8 <> (r.state->>'tdsWithoutPanBp')::int8
                THEN abs(d.tds * 10000 - d.gross * (r.state->>'tdsWithoutPanBp')::int8) < abs(d.tds * 10000 - d.gross * (r.state->>'tdsBp')::int8)
                ELSE NOT EXISTS (SELECT 1 FROM users u WHERE u.user_id = d.user_id AND u.pan IS NOT NULL)
           END AS without_pan
      FROM (
        SELECT l.user_id, l.run_id, (coalesce(o.created_at, l.created_at) AT TIME ZONE 'Asia/Kolkata')::date AS day,
               coalesce(sum(CASE WHEN l.reversal_of IS NULL THEN l.amount_paise ELSE -o.amount_paise END) FILTER (WHERE l.kind = 'daily_payout'), 0) AS gross,
               -coalesce(sum(CASE WHEN l.reversal_of IS NULL THEN l.amount_paise ELSE -o.amount_paise END) FILTER (WHERE l.kind = 'tds'), 0) AS tds
          FROM ledger_entries l
          LEFT JOIN ledger_entries o ON l.reversal_of IS NOT NULL AND o.id = l.reversal_of
         WHERE l.kind IN ('tds', 'daily_payout')
         GROUP BY 1, 2, 3
        HAVING count(*) FILTER (WHERE l.kind = 'tds') > 0
      ) d
      LEFT JOIN income_runs r ON r.run_id = d.run_id
  ) d
 GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "tds_quarter_members" ("quarter", "user_id")
SELECT "quarter", "user_id" FROM "tds_rebuilt" WHERE "tds" <> 0
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "tds_quarter_totals" ("quarter", "shard", "members", "gross_paise", "tds_paise", "tds_without_pan_paise")
SELECT "quarter", 0, count(*) FILTER (WHERE "tds" <> 0), sum("gross"), sum("tds"), sum("nopan")
  FROM "tds_rebuilt" GROUP BY 1
ON CONFLICT DO NOTHING;
--> statement-breakpoint
DROP TABLE "tds_rebuilt";
