CREATE TABLE "downline_counts" (
	"ancestor_id" bigint NOT NULL,
	"depth" smallint NOT NULL,
	"members" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "downline_counts_ancestor_id_depth_pk" PRIMARY KEY("ancestor_id","depth")
);
--> statement-breakpoint
-- Adds `sign` for each member whose referrer is listed, at every depth up to 10 above them.
-- A member's referrer never changes (docs/decisions.md), so inserts, soft deletes and hard
-- deletes are all there is to follow.
CREATE FUNCTION downline_counts_add(referrers int8[], sign int) RETURNS void LANGUAGE sql AS $$
  WITH RECURSIVE up(ancestor, depth) AS (
    SELECT r, 1 FROM unnest(referrers) AS r WHERE r IS NOT NULL
    UNION ALL
    SELECT a.referred_by, up.depth + 1 FROM up JOIN users a ON a.user_id = up.ancestor
     WHERE a.referred_by IS NOT NULL AND up.depth < 10
  )
  INSERT INTO downline_counts AS d (ancestor_id, depth, members)
  SELECT ancestor, depth, sign * count(*) FROM up GROUP BY 1, 2
  ON CONFLICT (ancestor_id, depth) DO UPDATE SET members = d.members + EXCLUDED.members;
$$;
--> statement-breakpoint
CREATE FUNCTION downline_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM downline_counts_add(array_agg(referred_by), 1) FROM new_rows
   WHERE deleted_at IS NULL AND referred_by IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER downline_counts_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION downline_counts_insert();
--> statement-breakpoint
CREATE FUNCTION downline_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM downline_counts_add(array_agg(referred_by), -1) FROM old_rows
   WHERE deleted_at IS NULL AND referred_by IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER downline_counts_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION downline_counts_delete();
--> statement-breakpoint
CREATE FUNCTION downline_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM downline_counts_add(ARRAY[NEW.referred_by], CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER downline_counts_update AFTER UPDATE ON users FOR EACH ROW
  WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) AND NEW.referred_by IS NOT NULL)
  EXECUTE FUNCTION downline_counts_update();
--> statement-breakpoint
SELECT downline_counts_add(array_agg(referred_by), 1) FROM users WHERE deleted_at IS NULL AND referred_by IS NOT NULL;
