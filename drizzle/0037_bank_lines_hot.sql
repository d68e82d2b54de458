-- Issue 25 (the 1M-line bank response import): settling a line should write the line and nothing
-- else. An UPDATE is HOT (no index entry written) only when no indexed column changes, and the
-- columns of an index's predicate count: the status was in two (the live-line uniqueness and the
-- in-transit index), so every release and every settlement wrote a new entry into every index of
-- the table. Now:
-- * a cancelled line is marked by its own column (`cancelled`, the status says the same: CHECK),
--   and "a withdrawal is sent once" is unique among the lines not cancelled;
-- * the lines in transit are listed in their own narrow table, bank_in_transit (a row added by the
--   release, taken away by the settlement or the return, in the same transaction; the money
--   invariants check that it lists exactly the lines whose status is in_transit);
-- * the lines table leaves half of each page free, so a line's next version fits beside it.
ALTER TABLE bank_transfer_lines ADD COLUMN IF NOT EXISTS cancelled boolean NOT NULL DEFAULT false;
--> statement-breakpoint
UPDATE bank_transfer_lines SET cancelled = true WHERE status = 'cancelled' AND NOT cancelled;
--> statement-breakpoint
ALTER TABLE bank_transfer_lines ADD CONSTRAINT bank_transfer_lines_cancelled_status CHECK (cancelled = (status = 'cancelled'));
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS bank_transfer_lines_live_entry_uq ON bank_transfer_lines (ledger_entry_id) WHERE NOT cancelled;
--> statement-breakpoint
DROP INDEX IF EXISTS bank_transfer_lines_entry_uq;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS bank_in_transit (
  line_id bigint PRIMARY KEY,
  batch_id bigint NOT NULL,
  amount_paise bigint NOT NULL,
  since timestamptz NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS bank_in_transit_since_idx ON bank_in_transit (since, line_id);
--> statement-breakpoint
INSERT INTO bank_in_transit (line_id, batch_id, amount_paise, since)
SELECT id, batch_id, amount_paise, in_transit_since FROM bank_transfer_lines WHERE status = 'in_transit'
ON CONFLICT (line_id) DO NOTHING;
--> statement-breakpoint
DROP INDEX IF EXISTS bank_transfer_lines_transit_idx;
--> statement-breakpoint
ALTER TABLE bank_transfer_lines SET (fillfactor = 50);
