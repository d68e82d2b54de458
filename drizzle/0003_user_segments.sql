CREATE TABLE "user_segments" (
	"level" integer NOT NULL,
	"rank_key" integer NOT NULL,
	"live" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "user_segments_level_rank_key_pk" PRIMARY KEY("level","rank_key")
);
--> statement-breakpoint
CREATE FUNCTION user_segments_add(rows_level int[], rows_rank int[], sign int) RETURNS void LANGUAGE sql AS $$
  INSERT INTO user_segments AS s (level, rank_key, live)
  SELECT l, r, sign * count(*) FROM unnest(rows_level, rows_rank) AS x(l, r) GROUP BY l, r
  ON CONFLICT (level, rank_key) DO UPDATE SET live = s.live + EXCLUDED.live;
$$;
--> statement-breakpoint
CREATE FUNCTION user_segments_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM user_segments_add(array_agg(level), array_agg(coalesce(rank_id, 0)), 1) FROM new_rows WHERE deleted_at IS NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_segments_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_segments_insert();
--> statement-breakpoint
CREATE FUNCTION user_segments_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM user_segments_add(array_agg(level), array_agg(coalesce(rank_id, 0)), -1) FROM old_rows WHERE deleted_at IS NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_segments_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_segments_delete();
--> statement-breakpoint
CREATE FUNCTION user_segments_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.deleted_at IS NULL THEN
    PERFORM user_segments_add(ARRAY[OLD.level], ARRAY[coalesce(OLD.rank_id, 0)], -1);
  END IF;
  IF NEW.deleted_at IS NULL THEN
    PERFORM user_segments_add(ARRAY[NEW.level], ARRAY[coalesce(NEW.rank_id, 0)], 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_segments_update AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.level IS DISTINCT FROM NEW.level OR OLD.rank_id IS DISTINCT FROM NEW.rank_id
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION user_segments_update();
--> statement-breakpoint
INSERT INTO user_segments (level, rank_key, live)
SELECT level, coalesce(rank_id, 0), count(*) FROM users WHERE deleted_at IS NULL GROUP BY 1, 2;
