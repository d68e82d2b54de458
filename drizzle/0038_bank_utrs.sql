-- The ninth session's review: a bank answer's UTR was never checked, so one UTR could settle many
-- lines (a forged or mistaken file: the company's bank account credited in the books for money the
-- bank moved once). Each UTR of a settled line is kept here once; the answers' plan refuses a UTR
-- already kept for another line, or given to two lines in one answer, as a conflict. Its own table,
-- written by the settlement, so that settling stays a HOT update of the line (drizzle/0037).
CREATE TABLE IF NOT EXISTS "bank_utrs" (
	"utr" text PRIMARY KEY NOT NULL,
	"line_id" bigint NOT NULL
);
--> statement-breakpoint
-- The UTRs of lines settled before: the first line (by id) keeps a UTR given more than once.
INSERT INTO bank_utrs (utr, line_id)
SELECT DISTINCT ON (utr) utr, id FROM bank_transfer_lines WHERE status = 'settled' AND utr IS NOT NULL ORDER BY utr, id
ON CONFLICT DO NOTHING;
