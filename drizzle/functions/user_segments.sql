-- Maintains user_segments: live members per (level, rank_key), rank_key 0 = no rank. The users
-- list's level and rank filters count from here, not over the table, and the Level filter offers
-- the levels found here. Staff (can_sign_in) are not members and never counted (decisions.md).
-- Reads: users.level, users.rank_id, users.deleted_at, users.can_sign_in.
-- History: drizzle/0003, staff left out by drizzle/0028.

CREATE OR REPLACE FUNCTION public.user_segments_add(rows_level integer[], rows_rank integer[], sign integer)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO user_segments AS s (level, rank_key, live)
  SELECT l, r, sign * count(*) FROM unnest(rows_level, rows_rank) AS x(l, r) GROUP BY l, r
  ON CONFLICT (level, rank_key) DO UPDATE SET live = s.live + EXCLUDED.live;
$function$;

CREATE OR REPLACE FUNCTION public.user_segments_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM user_segments_add(array_agg(level), array_agg(coalesce(rank_id, 0)), 1) FROM new_rows WHERE deleted_at IS NULL AND NOT can_sign_in HAVING count(*) > 0;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER user_segments_insert AFTER INSERT ON public.users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_segments_insert();

CREATE OR REPLACE FUNCTION public.user_segments_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM user_segments_add(array_agg(level), array_agg(coalesce(rank_id, 0)), -1) FROM old_rows WHERE deleted_at IS NULL AND NOT can_sign_in HAVING count(*) > 0;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER user_segments_delete AFTER DELETE ON public.users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_segments_delete();

CREATE OR REPLACE FUNCTION public.user_segments_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF OLD.deleted_at IS NULL AND NOT OLD.can_sign_in THEN
    PERFORM user_segments_add(ARRAY[OLD.level], ARRAY[coalesce(OLD.rank_id, 0)], -1);
  END IF;
  IF NEW.deleted_at IS NULL AND NOT NEW.can_sign_in THEN
    PERFORM user_segments_add(ARRAY[NEW.level], ARRAY[coalesce(NEW.rank_id, 0)], 1);
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER user_segments_update AFTER UPDATE ON public.users FOR EACH ROW WHEN (((old.level IS DISTINCT FROM new.level) OR (old.rank_id IS DISTINCT FROM new.rank_id) OR (old.deleted_at IS DISTINCT FROM new.deleted_at) OR (old.can_sign_in IS DISTINCT FROM new.can_sign_in))) EXECUTE FUNCTION user_segments_update();
