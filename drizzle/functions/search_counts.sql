-- Maintains search_counts.matches: the count of live members matching a frequent search, kept
-- exact between recounts (users.repository keepSearchCount). Whether a member matches is
-- member_search_match (member_search_match.sql, the one member-search rule).
-- Every trigger here updates search_counts (even when no cached search matches), which takes the
-- lock that a recount holds exclusively: a recount never misses a member written while it counts.
-- Staff (can_sign_in) are not members (decisions.md): they are passed to member_search_match as
-- if deleted, so an account becoming staff or ceasing to be staff moves the kept counts.
-- Reads: users.full_name, users.email, users.phone, users.level, users.rank_id, users.deleted_at,
-- users.can_sign_in, users.user_id.
-- History: drizzle/0009, staff left out by drizzle/0028.

CREATE OR REPLACE FUNCTION public.search_counts_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE search_counts c SET matches = c.matches + x.n
    FROM (SELECT s.term, s.level_key, s.rank_key, count(*) AS n FROM search_counts s CROSS JOIN new_rows r
           WHERE member_search_match(s.term, s.level_key, s.rank_key, CASE WHEN r.can_sign_in THEN coalesce(r.deleted_at, now()) ELSE r.deleted_at END, r.level, r.rank_id, r.full_name, r.email, r.phone, r.user_id)
           GROUP BY 1, 2, 3) x
   WHERE c.term = x.term AND c.level_key = x.level_key AND c.rank_key = x.rank_key;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER search_counts_insert AFTER INSERT ON public.users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_counts_insert();

CREATE OR REPLACE FUNCTION public.search_counts_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE search_counts c SET matches = c.matches - x.n
    FROM (SELECT s.term, s.level_key, s.rank_key, count(*) AS n FROM search_counts s CROSS JOIN old_rows r
           WHERE member_search_match(s.term, s.level_key, s.rank_key, CASE WHEN r.can_sign_in THEN coalesce(r.deleted_at, now()) ELSE r.deleted_at END, r.level, r.rank_id, r.full_name, r.email, r.phone, r.user_id)
           GROUP BY 1, 2, 3) x
   WHERE c.term = x.term AND c.level_key = x.level_key AND c.rank_key = x.rank_key;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER search_counts_delete AFTER DELETE ON public.users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_counts_delete();

CREATE OR REPLACE FUNCTION public.search_counts_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE search_counts c SET matches = c.matches
       + member_search_match(c.term, c.level_key, c.rank_key, CASE WHEN NEW.can_sign_in THEN coalesce(NEW.deleted_at, now()) ELSE NEW.deleted_at END, NEW.level, NEW.rank_id, NEW.full_name, NEW.email, NEW.phone, NEW.user_id)::int
       - member_search_match(c.term, c.level_key, c.rank_key, CASE WHEN OLD.can_sign_in THEN coalesce(OLD.deleted_at, now()) ELSE OLD.deleted_at END, OLD.level, OLD.rank_id, OLD.full_name, OLD.email, OLD.phone, OLD.user_id)::int
   WHERE member_search_match(c.term, c.level_key, c.rank_key, CASE WHEN NEW.can_sign_in THEN coalesce(NEW.deleted_at, now()) ELSE NEW.deleted_at END, NEW.level, NEW.rank_id, NEW.full_name, NEW.email, NEW.phone, NEW.user_id)
      <> member_search_match(c.term, c.level_key, c.rank_key, CASE WHEN OLD.can_sign_in THEN coalesce(OLD.deleted_at, now()) ELSE OLD.deleted_at END, OLD.level, OLD.rank_id, OLD.full_name, OLD.email, OLD.phone, OLD.user_id);
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER search_counts_update AFTER UPDATE ON public.users FOR EACH ROW WHEN (((old.full_name IS DISTINCT FROM new.full_name) OR (old.email IS DISTINCT FROM new.email) OR (old.phone IS DISTINCT FROM new.phone) OR (old.level IS DISTINCT FROM new.level) OR (old.rank_id IS DISTINCT FROM new.rank_id) OR (old.deleted_at IS DISTINCT FROM new.deleted_at) OR (old.user_id IS DISTINCT FROM new.user_id) OR (old.can_sign_in IS DISTINCT FROM new.can_sign_in))) EXECUTE FUNCTION search_counts_update();
