CREATE TABLE "income_month_totals" (
	"kind" text NOT NULL,
	"reward_key" text NOT NULL,
	"month" date NOT NULL,
	"total_paise" bigint DEFAULT 0 NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	"users" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "income_month_totals_kind_reward_key_month_pk" PRIMARY KEY("kind","reward_key","month")
);
--> statement-breakpoint
CREATE TABLE "income_month_users" (
	"kind" text NOT NULL,
	"reward_key" text NOT NULL,
	"month" date NOT NULL,
	"user_id" bigint NOT NULL,
	"total_paise" bigint DEFAULT 0 NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "income_month_users_kind_reward_key_month_user_id_pk" PRIMARY KEY("kind","reward_key","month","user_id")
);
--> statement-breakpoint
DROP INDEX "ledger_batch_idx";--> statement-breakpoint
CREATE INDEX "income_month_users_top_idx" ON "income_month_users" USING btree ("kind","reward_key","month","total_paise" DESC NULLS LAST,"user_id");--> statement-breakpoint
CREATE INDEX "ledger_batch_user_idx" ON "ledger_entries" USING btree ("batch_id","user_id") WHERE "ledger_entries"."batch_id" is not null;--> statement-breakpoint
-- Royalty and reward credits (ledger rows with a batch) add up per month of the batch's run date,
-- kind, reward type and receiver, and per month in all; `xmax = 0` tells a receiver's first credit
-- of the month (a row inserted, not updated), which is what counts them once in `users`.
CREATE FUNCTION income_months_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows WHERE batch_id IS NOT NULL) THEN
    RETURN NULL; -- wallet traffic: nothing to add up
  END IF;
  WITH credits AS (
    SELECT b.kind, coalesce(b.reward_type, '') AS reward_key, date_trunc('month', b.run_date)::date AS month,
           n.user_id, sum(n.amount_paise) AS paise, count(*) AS entries
      FROM new_rows n JOIN income_batches b ON b.batch_id = n.batch_id
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
END $$;
--> statement-breakpoint
CREATE TRIGGER income_months_insert AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION income_months_insert();
--> statement-breakpoint
-- A batch's kind, reward type and run date place its credits in the rollup: they never change.
CREATE FUNCTION income_batches_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'income_batches kind, reward_type and run_date are fixed once credits may exist';
END $$;
--> statement-breakpoint
CREATE TRIGGER income_batches_fixed BEFORE UPDATE ON income_batches FOR EACH ROW
  WHEN (OLD.kind IS DISTINCT FROM NEW.kind OR OLD.reward_type IS DISTINCT FROM NEW.reward_type OR OLD.run_date IS DISTINCT FROM NEW.run_date)
  EXECUTE FUNCTION income_batches_fixed();
--> statement-breakpoint
INSERT INTO income_month_users (kind, reward_key, month, user_id, total_paise, entries)
SELECT b.kind, coalesce(b.reward_type, ''), date_trunc('month', b.run_date)::date, l.user_id, sum(l.amount_paise), count(*)
  FROM ledger_entries l JOIN income_batches b ON b.batch_id = l.batch_id
 GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO income_month_totals (kind, reward_key, month, total_paise, entries, users)
SELECT kind, reward_key, month, sum(total_paise), sum(entries), count(*) FROM income_month_users GROUP BY 1, 2, 3;
--> statement-breakpoint
ANALYZE income_month_users;
--> statement-breakpoint
ANALYZE income_month_totals;
