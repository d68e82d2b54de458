CREATE TABLE "search_counts" (
	"term" text NOT NULL,
	"level_key" integer NOT NULL,
	"rank_key" integer NOT NULL,
	"matches" bigint NOT NULL,
	"counted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_counts_term_level_key_rank_key_pk" PRIMARY KEY("term","level_key","rank_key")
);
--> statement-breakpoint
-- Whether a member counts for a cached search: exactly the member list's search (users.repository
-- listUsers) — live, at the level and rank asked for (0 = any), and the term within the name, or
-- starting the email, the phone (digits) or equal to the user id.
CREATE FUNCTION member_search_match(term text, level_key int, rank_key int, deleted_at timestamptz, lvl int, rank_id int,
                                    full_name text, email text, phone text, user_id int8) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(deleted_at IS NULL
     AND (level_key = 0 OR lvl = level_key)
     AND (rank_key = 0 OR rank_id = rank_key)
     AND (lower(full_name) LIKE '%' || e || '%'
          OR email LIKE e || '%'
          OR CASE WHEN term ~ '^\+?\d+$' THEN phone LIKE e || '%' ELSE false END
          OR CASE WHEN term ~ '^\d{1,15}$' THEN user_id = term::int8 ELSE false END), false)
    FROM (SELECT replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') AS e) x
$$;
--> statement-breakpoint
-- Every trigger below updates search_counts (even when no cached search matches), which takes the
-- lock that a recount holds exclusively: a recount never misses a member written while it counts.
CREATE FUNCTION search_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_counts c SET matches = c.matches + x.n
    FROM (SELECT s.term, s.level_key, s.rank_key, count(*) AS n FROM search_counts s CROSS JOIN new_rows r
           WHERE member_search_match(s.term, s.level_key, s.rank_key, r.deleted_at, r.level, r.rank_id, r.full_name, r.email, r.phone, r.user_id)
           GROUP BY 1, 2, 3) x
   WHERE c.term = x.term AND c.level_key = x.level_key AND c.rank_key = x.rank_key;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER search_counts_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_counts_insert();
--> statement-breakpoint
CREATE FUNCTION search_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_counts c SET matches = c.matches - x.n
    FROM (SELECT s.term, s.level_key, s.rank_key, count(*) AS n FROM search_counts s CROSS JOIN old_rows r
           WHERE member_search_match(s.term, s.level_key, s.rank_key, r.deleted_at, r.level, r.rank_id, r.full_name, r.email, r.phone, r.user_id)
           GROUP BY 1, 2, 3) x
   WHERE c.term = x.term AND c.level_key = x.level_key AND c.rank_key = x.rank_key;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER search_counts_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_counts_delete();
--> statement-breakpoint
CREATE FUNCTION search_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_counts c SET matches = c.matches
       + member_search_match(c.term, c.level_key, c.rank_key, NEW.deleted_at, NEW.level, NEW.rank_id, NEW.full_name, NEW.email, NEW.phone, NEW.user_id)::int
       - member_search_match(c.term, c.level_key, c.rank_key, OLD.deleted_at, OLD.level, OLD.rank_id, OLD.full_name, OLD.email, OLD.phone, OLD.user_id)::int
   WHERE member_search_match(c.term, c.level_key, c.rank_key, NEW.deleted_at, NEW.level, NEW.rank_id, NEW.full_name, NEW.email, NEW.phone, NEW.user_id)
      <> member_search_match(c.term, c.level_key, c.rank_key, OLD.deleted_at, OLD.level, OLD.rank_id, OLD.full_name, OLD.email, OLD.phone, OLD.user_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER search_counts_update AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.full_name IS DISTINCT FROM NEW.full_name OR OLD.email IS DISTINCT FROM NEW.email OR OLD.phone IS DISTINCT FROM NEW.phone
        OR OLD.level IS DISTINCT FROM NEW.level OR OLD.rank_id IS DISTINCT FROM NEW.rank_id
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION search_counts_update();
