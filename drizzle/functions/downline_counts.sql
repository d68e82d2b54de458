-- Maintains downline_counts: how many live members sit at each depth (1-10) below a member, and
-- first_members, the lowest ids at that depth (kept sorted, at most 100, deleted ones included).
-- For sign 1 (new or restored members) the group's lowest ids are merged into first_members; for
-- -1 (soft or hard deletes) only the count moves: a deleted member stays listed and readers skip
-- it. A hard delete (never done by the product, which soft-deletes) also drops the ids from the
-- lists. A member's referrer never changes (docs/decisions.md), so inserts, soft deletes and hard
-- deletes are all there is to follow.
-- Staff (can_sign_in) are not members (decisions.md): never counted in a downline; an account
-- becoming staff or ceasing to be staff moves the counts like a soft delete or a restore.
-- Reads: users.user_id, users.referred_by, users.deleted_at, users.can_sign_in (and walks referred_by upwards).
-- History: drizzle/0006, replaced in place by drizzle/0008, staff left out by drizzle/0028.

CREATE OR REPLACE FUNCTION public.downline_members_add(new_members bigint[], referrers bigint[], sign integer)
 RETURNS void
 LANGUAGE sql
AS $function$
  WITH RECURSIVE up(member, ancestor, depth) AS (
    SELECT m, r, 1 FROM unnest(new_members, referrers) AS x(m, r) WHERE r IS NOT NULL
    UNION ALL
    SELECT up.member, a.referred_by, up.depth + 1 FROM up JOIN users a ON a.user_id = up.ancestor
     WHERE a.referred_by IS NOT NULL AND up.depth < 10
  )
  INSERT INTO downline_counts AS d (ancestor_id, depth, members, first_members)
  SELECT ancestor, depth, sign * count(*),
         CASE WHEN sign > 0 THEN (array_agg(member ORDER BY member))[1:100] ELSE '{}'::int8[] END
    FROM up GROUP BY 1, 2
  ON CONFLICT (ancestor_id, depth) DO UPDATE SET
    members = d.members + EXCLUDED.members,
    first_members = CASE
      WHEN cardinality(EXCLUDED.first_members) = 0
        OR (cardinality(d.first_members) >= 100 AND EXCLUDED.first_members[1] > d.first_members[100])
      THEN d.first_members
      ELSE ARRAY(SELECT DISTINCT id FROM unnest(d.first_members || EXCLUDED.first_members) AS u(id) ORDER BY id LIMIT 100)
    END;
$function$;

CREATE OR REPLACE FUNCTION public.downline_members_forget(gone bigint[], referrers bigint[])
 RETURNS void
 LANGUAGE sql
AS $function$
  WITH RECURSIVE up(ancestor, depth) AS (
    SELECT r, 1 FROM unnest(referrers) AS r WHERE r IS NOT NULL
    UNION ALL
    SELECT a.referred_by, up.depth + 1 FROM up JOIN users a ON a.user_id = up.ancestor
     WHERE a.referred_by IS NOT NULL AND up.depth < 10
  )
  UPDATE downline_counts d SET first_members = ARRAY(SELECT id FROM unnest(d.first_members) AS u(id) WHERE id <> ALL (gone) ORDER BY id)
   WHERE (d.ancestor_id, d.depth) IN (SELECT ancestor, depth FROM up) AND d.first_members && gone;
$function$;

CREATE OR REPLACE FUNCTION public.downline_counts_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM downline_members_add(array_agg(user_id), array_agg(referred_by), 1) FROM new_rows
   WHERE deleted_at IS NULL AND NOT can_sign_in AND referred_by IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER downline_counts_insert AFTER INSERT ON public.users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION downline_counts_insert();

CREATE OR REPLACE FUNCTION public.downline_counts_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM downline_members_add(array_agg(user_id), array_agg(referred_by), -1) FROM old_rows
   WHERE deleted_at IS NULL AND NOT can_sign_in AND referred_by IS NOT NULL HAVING count(*) > 0;
  PERFORM downline_members_forget(array_agg(user_id), array_agg(referred_by)) FROM old_rows
   WHERE referred_by IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER downline_counts_delete AFTER DELETE ON public.users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION downline_counts_delete();

CREATE OR REPLACE FUNCTION public.downline_counts_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM downline_members_add(ARRAY[NEW.user_id], ARRAY[NEW.referred_by],
    CASE WHEN NEW.deleted_at IS NULL AND NOT NEW.can_sign_in THEN 1 ELSE -1 END);
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER downline_counts_update AFTER UPDATE ON public.users FOR EACH ROW WHEN (((((old.deleted_at IS NULL) AND (NOT old.can_sign_in)) <> ((new.deleted_at IS NULL) AND (NOT new.can_sign_in))) AND (new.referred_by IS NOT NULL))) EXECUTE FUNCTION downline_counts_update();
