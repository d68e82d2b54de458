-- Issue 25, bank-mode daily payouts (docs/bank-transfers.md): a draft bank batch can be cancelled.
-- Its lines stay as history, marked 'cancelled', and are gathered again: "a withdrawal (or a
-- payout) is sent once" holds for the live lines only, so ledger_entry_id is unique among them.
ALTER TABLE bank_batches DROP CONSTRAINT IF EXISTS bank_batches_status_check;
--> statement-breakpoint
ALTER TABLE bank_batches ADD CONSTRAINT bank_batches_status_check CHECK (status IN ('draft', 'pending_release', 'released', 'closed', 'cancelled'));
--> statement-breakpoint
ALTER TABLE bank_batches ADD COLUMN IF NOT EXISTS cancelled_by bigint;
--> statement-breakpoint
ALTER TABLE bank_batches ADD COLUMN IF NOT EXISTS cancelled_at timestamptz;
--> statement-breakpoint
ALTER TABLE bank_transfer_lines DROP CONSTRAINT IF EXISTS bank_transfer_lines_status_check;
--> statement-breakpoint
ALTER TABLE bank_transfer_lines ADD CONSTRAINT bank_transfer_lines_status_check CHECK (status IN ('queued', 'in_transit', 'settled', 'returned', 'cancelled'));
--> statement-breakpoint
DROP INDEX IF EXISTS bank_transfer_lines_entry_uq;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS bank_transfer_lines_entry_uq ON bank_transfer_lines (ledger_entry_id) WHERE status <> 'cancelled';
