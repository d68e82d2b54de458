-- Issue 25, tax on what is paid (docs/tax.md). A member's PAN (Permanent Account Number): five
-- letters, four digits, one letter. Null: the member has not given one, and TDS on their payouts is
-- deducted at the settings' no-PAN rate (section 206AA; tdsWithoutPanPercent, default 20 %).
-- A change is filed as an approval request (kind pan_change) and written only on a second
-- operator's approval. Several member accounts of one person may carry the same PAN: not unique.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "pan" text;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'users_pan_format') THEN
    ALTER TABLE "users" ADD CONSTRAINT "users_pan_format" CHECK ("pan" IS NULL OR "pan" ~ '^[A-Z]{5}[0-9]{4}[A-Z]$');
  END IF;
END $$;
--> statement-breakpoint
-- The settings: saved versions from before this gain the no-PAN rate explicitly (20 %, the
-- contract's default, which a version read without it gets too), so the Settings screen and the
-- history show the rate each version deducts at.
UPDATE "income_settings_versions"
   SET "settings" = "settings" || '{"tdsWithoutPanPercent": 20}'::jsonb
 WHERE NOT ("settings" ? 'tdsWithoutPanPercent');
