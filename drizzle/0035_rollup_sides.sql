-- The daily rollups keep each side of the movement apart (docs/books.md, "An account statement"):
-- debit_paise (what the day's debits took, a positive figure) and credit_paise (what its credits
-- added), so total_paise = credit_paise - debit_paise, and a statement's debits and credits over
-- any period read the rollups instead of the legs. book_daily (company accounts) and ledger_daily
-- (the member lines, read for the member wallets' control account) both; the triggers that keep
-- them (drizzle/functions/books.sql, ledger_totals.sql) add to them from now on.
ALTER TABLE book_daily ADD COLUMN IF NOT EXISTS debit_paise bigint NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE book_daily ADD COLUMN IF NOT EXISTS credit_paise bigint NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE ledger_daily ADD COLUMN IF NOT EXISTS debit_paise bigint NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE ledger_daily ADD COLUMN IF NOT EXISTS credit_paise bigint NOT NULL DEFAULT 0;
--> statement-breakpoint
-- The back-fill, from the legs written so far. A leg does not record the shard it was added to (the
-- writing transaction's id), so each day's sides go to the day's lowest shard row (readers add the
-- shards up; every day with legs has at least one row). One pass over each table.
UPDATE book_daily d
   SET debit_paise = l.debit, credit_paise = l.credit
  FROM (SELECT account, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day,
               coalesce(-sum(amount_paise) FILTER (WHERE amount_paise < 0), 0) AS debit,
               coalesce(sum(amount_paise) FILTER (WHERE amount_paise > 0), 0) AS credit
          FROM book_legs GROUP BY 1, 2) l,
       (SELECT account, day, min(shard) AS shard FROM book_daily GROUP BY 1, 2) f
 WHERE f.account = l.account AND f.day = l.day
   AND d.account = f.account AND d.day = f.day AND d.shard = f.shard;
--> statement-breakpoint
UPDATE ledger_daily d
   SET debit_paise = l.debit, credit_paise = l.credit
  FROM (SELECT kind, (created_at AT TIME ZONE 'Asia/Kolkata')::date AS day,
               coalesce(-sum(amount_paise) FILTER (WHERE amount_paise < 0), 0) AS debit,
               coalesce(sum(amount_paise) FILTER (WHERE amount_paise > 0), 0) AS credit
          FROM ledger_entries GROUP BY 1, 2) l,
       (SELECT kind, day, min(shard) AS shard FROM ledger_daily GROUP BY 1, 2) f
 WHERE f.kind = l.kind AND f.day = l.day
   AND d.kind = f.kind AND d.day = f.day AND d.shard = f.shard;
