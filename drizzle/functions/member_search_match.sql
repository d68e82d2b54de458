-- GENERATED from src/server/db/member-search.ts by `npm run db:functions`: edit the rule there.
-- Whether a member counts for a cached search (search_counts): exactly the users list's search,
-- live, at the level and rank asked for (0 = any). Called by the search_counts triggers.
-- Reads (as arguments): users.deleted_at, users.level, users.rank_id, users.full_name, users.email,
-- users.phone, users.user_id.
-- History: drizzle/0009.

CREATE OR REPLACE FUNCTION public.member_search_match(term text, level_key integer, rank_key integer, deleted_at timestamp with time zone, lvl integer, rank_id integer, full_name text, email text, phone text, user_id bigint)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT coalesce(deleted_at IS NULL
     AND (level_key = 0 OR lvl = level_key)
     AND (rank_key = 0 OR rank_id = rank_key)
     AND (lower(full_name) LIKE '%' || e || '%'
          OR email LIKE e || '%'
          OR CASE WHEN term ~ '^\+?\d+$' THEN phone LIKE e || '%' ELSE false END
          OR CASE WHEN term ~ '^\d{1,15}$' THEN user_id = term::int8 ELSE false END), false)
    FROM (SELECT replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') AS e) x
$function$;
