-- The digest of drizzle/functions/*.sql last applied by migrate() (src/server/db/functions.ts).
CREATE TABLE "db_functions" (
	"digest" text PRIMARY KEY NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
