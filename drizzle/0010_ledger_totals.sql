CREATE TABLE "ledger_totals" (
	"kind" text NOT NULL,
	"shard" smallint NOT NULL,
	"total_paise" bigint DEFAULT 0 NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ledger_totals_kind_shard_pk" PRIMARY KEY("kind","shard")
);
--> statement-breakpoint
-- The same trigger now keeps both: the day totals, then the all-time totals, each in a fixed order
-- (kind, then shard) so that concurrent writers always take the rows' locks in the same order.
CREATE OR REPLACE FUNCTION ledger_daily_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_daily AS d (day, kind, shard, total_paise, entries)
  SELECT (created_at AT TIME ZONE 'Asia/Kolkata')::date, kind, (user_id % 8)::smallint, sum(amount_paise), count(*)
  FROM new_rows GROUP BY 1, 2, 3 ORDER BY 2, 1, 3
  ON CONFLICT (kind, day, shard) DO UPDATE
    SET total_paise = d.total_paise + EXCLUDED.total_paise, entries = d.entries + EXCLUDED.entries;
  INSERT INTO ledger_totals AS t (kind, shard, total_paise, entries)
  SELECT kind, (user_id % 8)::smallint, sum(amount_paise), count(*)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (kind, shard) DO UPDATE
    SET total_paise = t.total_paise + EXCLUDED.total_paise, entries = t.entries + EXCLUDED.entries;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO ledger_totals (kind, shard, total_paise, entries)
SELECT kind, shard, sum(total_paise), sum(entries) FROM ledger_daily GROUP BY 1, 2;
