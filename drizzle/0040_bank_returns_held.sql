-- Returns from the bank under four eyes: a REJECTED line of an imported response file credits the
-- member's wallet back only once a second operator approves it (one bank_returns request per
-- import). Until then the line stays in transit and names the request that holds its return; the
-- bank's reason waits in return_reason. A signed webhook from the provider still returns at once.
ALTER TABLE "bank_transfer_lines" ADD COLUMN IF NOT EXISTS "return_approval_id" bigint;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "bank_transfer_lines_return_approval_idx" ON "bank_transfer_lines" ("return_approval_id", "id") WHERE "return_approval_id" IS NOT NULL;
