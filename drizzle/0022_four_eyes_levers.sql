CREATE TABLE "operator_member_daily" (
	"actor_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"day" date NOT NULL,
	"paise" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "operator_member_daily_actor_id_user_id_day_pk" PRIMARY KEY("actor_id","user_id","day")
);
--> statement-breakpoint
ALTER TABLE "money_requests" DROP CONSTRAINT "money_requests_amount_positive";--> statement-breakpoint
ALTER TABLE "money_requests" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "name_key" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.role_name_key(name text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT btrim(regexp_replace(
    translate(
      lower(normalize(
        regexp_replace(name, '[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]', '', 'g'),
        NFKC)),
      -- Cyrillic and Greek letters that look Latin, the dotless i, and Latin look-alikes.
      'аеорсухкмнтвіјѕԁɡӏαεικνορτυχγıłø',
      'aeopcyxkmhtbijsdgllaeiknoptuxyilo'),
    '\s+', ' ', 'g'));
$function$;
--> statement-breakpoint
UPDATE "roles" r SET "name_key" = role_name_key(r."name") || CASE WHEN EXISTS (SELECT 1 FROM "roles" o WHERE o."role_id" < r."role_id" AND role_name_key(o."name") = role_name_key(r."name")) THEN ' #' || r."role_id" ELSE '' END;--> statement-breakpoint
ALTER TABLE "roles" ALTER COLUMN "name_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "run_shortfalls" ADD COLUMN "recovered_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "recovery_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "unconfirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_daily_credits" ADD COLUMN "debit_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "users_recovery_idx" ON "users" USING btree ("user_id") WHERE "users"."recovery_paise" > 0;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_name_key_unique" UNIQUE("name_key");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_recovery_not_negative" CHECK ("users"."recovery_paise" >= 0);--> statement-breakpoint
ALTER TABLE "money_requests" ADD CONSTRAINT "money_requests_amount_not_negative" CHECK ("money_requests"."amount_paise" >= 0);