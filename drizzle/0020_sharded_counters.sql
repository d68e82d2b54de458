-- stat_counters in 8 shards per counter (issue 16): every activation added 1 to the one
-- membership_users row, so concurrent activations queued on it until each committed. A writer now
-- adds to the shard of its transaction (drizzle/functions/stat_counters.sql); readers sum them.
ALTER TABLE "stat_counters" DROP CONSTRAINT "stat_counters_pkey";--> statement-breakpoint
ALTER TABLE "stat_counters" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stat_counters" ADD CONSTRAINT "stat_counters_name_shard_pk" PRIMARY KEY("name","shard");
