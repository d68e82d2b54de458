-- A line's reference is BT<batch>-<line id> (the gather writes it so): a CHECK now says so, and the
-- primary key makes it unique, so its own unique index goes. That index was one of five written
-- for every line a bank answer settles (issue 25: the 1M-line response import); the import and the
-- webhook find a line by the id its reference names (and check the whole reference).
ALTER TABLE bank_transfer_lines ADD CONSTRAINT bank_transfer_lines_reference_named CHECK (reference = 'BT' || batch_id || '-' || id);
--> statement-breakpoint
DROP INDEX IF EXISTS bank_transfer_lines_reference_uq;
