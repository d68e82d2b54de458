-- Issue 16: a run is worked in slices (two side by side on PostgreSQL for a kind that can split),
-- each with its own cursor; -1 marks a slice done. A run from before keeps its one cursor.
ALTER TABLE "income_runs" ADD COLUMN "cursors" bigint[] DEFAULT '{0}'::int8[] NOT NULL;--> statement-breakpoint
ALTER TABLE "income_runs" ADD COLUMN "slice_ends" bigint[] DEFAULT '{}'::int8[] NOT NULL;--> statement-breakpoint
UPDATE "income_runs" SET "cursors" = ARRAY[CASE WHEN "status" IN ('running', 'failed') THEN "cursor" ELSE -1 END];--> statement-breakpoint
ALTER TABLE "income_runs" DROP COLUMN "cursor";
