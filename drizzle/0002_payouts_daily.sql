CREATE TABLE "payouts_daily" (
	"day" date NOT NULL,
	"status" text NOT NULL,
	"payouts" bigint DEFAULT 0 NOT NULL,
	"total_paise" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "payouts_daily_day_status_pk" PRIMARY KEY("day","status")
);
--> statement-breakpoint
-- Kept in the writer's transaction; set-based for bulk loads.
CREATE FUNCTION payouts_daily_add() RETURNS trigger LANGUAGE plpgsql AS $$
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
END $$;
--> statement-breakpoint
CREATE TRIGGER payouts_daily_insert AFTER INSERT ON daily_payouts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_daily_add();
--> statement-breakpoint
CREATE TRIGGER payouts_daily_update AFTER UPDATE ON daily_payouts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_daily_add();
--> statement-breakpoint
CREATE TRIGGER payouts_daily_delete AFTER DELETE ON daily_payouts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_daily_add();
--> statement-breakpoint
INSERT INTO payouts_daily (day, status, payouts, total_paise)
SELECT payout_date, status, count(*), sum(amount_paise) FROM daily_payouts GROUP BY 1, 2;
