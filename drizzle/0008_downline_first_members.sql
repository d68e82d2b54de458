ALTER TABLE "downline_counts" ADD COLUMN "first_members" bigint[] DEFAULT '{}'::int8[] NOT NULL;--> statement-breakpoint
-- Counts and first members together: for `sign` 1 (new or restored members) the group's lowest ids
-- are merged into first_members (kept sorted, at most 100); for -1 (soft or hard deletes) only the
-- count moves — a deleted member stays listed and readers skip it.
CREATE FUNCTION downline_members_add(new_members int8[], referrers int8[], sign int) RETURNS void LANGUAGE sql AS $$
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
$$;
--> statement-breakpoint
-- A hard delete (never done by the product, which soft-deletes) also drops the ids from the lists.
CREATE FUNCTION downline_members_forget(gone int8[], referrers int8[]) RETURNS void LANGUAGE sql AS $$
  WITH RECURSIVE up(ancestor, depth) AS (
    SELECT r, 1 FROM unnest(referrers) AS r WHERE r IS NOT NULL
    UNION ALL
    SELECT a.referred_by, up.depth + 1 FROM up JOIN users a ON a.user_id = up.ancestor
     WHERE a.referred_by IS NOT NULL AND up.depth < 10
  )
  UPDATE downline_counts d SET first_members = ARRAY(SELECT id FROM unnest(d.first_members) AS u(id) WHERE id <> ALL (gone) ORDER BY id)
   WHERE (d.ancestor_id, d.depth) IN (SELECT ancestor, depth FROM up) AND d.first_members && gone;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION downline_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM downline_members_add(array_agg(user_id), array_agg(referred_by), 1) FROM new_rows
   WHERE deleted_at IS NULL AND referred_by IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION downline_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM downline_members_add(array_agg(user_id), array_agg(referred_by), -1) FROM old_rows
   WHERE deleted_at IS NULL AND referred_by IS NOT NULL HAVING count(*) > 0;
  PERFORM downline_members_forget(array_agg(user_id), array_agg(referred_by)) FROM old_rows
   WHERE referred_by IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION downline_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM downline_members_add(ARRAY[NEW.user_id], ARRAY[NEW.referred_by], CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION downline_counts_add(int8[], int);
--> statement-breakpoint
WITH RECURSIVE up(member, ancestor, depth) AS (
  SELECT user_id, referred_by, 1 FROM users WHERE referred_by IS NOT NULL
  UNION ALL
  SELECT up.member, a.referred_by, up.depth + 1 FROM up JOIN users a ON a.user_id = up.ancestor
   WHERE a.referred_by IS NOT NULL AND up.depth < 10
)
UPDATE downline_counts d SET first_members = f.ids
  FROM (SELECT ancestor, depth, (array_agg(member ORDER BY member))[1:100] AS ids FROM up GROUP BY 1, 2) f
 WHERE d.ancestor_id = f.ancestor AND d.depth = f.depth;
