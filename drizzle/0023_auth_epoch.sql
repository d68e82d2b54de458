CREATE SEQUENCE "public"."auth_epoch" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "server_copies" (
	"id" text PRIMARY KEY NOT NULL,
	"applied_version" bigint NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
