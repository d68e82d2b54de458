-- Maintains stat_counters (users_total, users_active, users_inactive, membership_users): the
-- dashboard's and the users list's totals, kept in the writer's own transaction so that no request
-- counts a million rows. A live member is one with deleted_at null that does not sign in to the
-- panel (staff are not members, docs/decisions.md: an account becoming staff or ceasing to be
-- staff moves the counts); membership_users counts live members with a memberships row.
-- Reads: users.status, users.deleted_at, users.can_sign_in, users.user_id; memberships.user_id.
-- Insert and delete triggers are per statement with transition tables, so bulk loads (seeding)
-- stay set-based; the update trigger fires only when status, deleted_at or can_sign_in changes.
-- A counter is the sum of its shards: a writer adds to the shard of its transaction id mod 8
-- (created on first use), in name order, so concurrent writers rarely share a row (drizzle/0020).
-- History: drizzle/0001, sharded by drizzle/0020, staff left out by drizzle/0028.

CREATE OR REPLACE FUNCTION public.stat_counters_add(d_total bigint, d_active bigint, d_inactive bigint, d_members bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO stat_counters AS c (name, shard, value)
  SELECT d.name, (txid_current() % 8)::smallint, d.delta
  FROM (VALUES ('users_total', d_total), ('users_active', d_active),
               ('users_inactive', d_inactive), ('membership_users', d_members)) AS d(name, delta)
  WHERE d.delta <> 0
  ORDER BY d.name
  ON CONFLICT (name, shard) DO UPDATE SET value = c.value + EXCLUDED.value;
$function$;

CREATE OR REPLACE FUNCTION public.users_counters_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM stat_counters_add(count(*), count(*) FILTER (WHERE status), count(*) FILTER (WHERE NOT status), 0)
  FROM new_rows WHERE deleted_at IS NULL AND NOT can_sign_in;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER users_counters_insert AFTER INSERT ON public.users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION users_counters_insert();

CREATE OR REPLACE FUNCTION public.users_counters_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  was_live int := CASE WHEN OLD.deleted_at IS NULL AND NOT OLD.can_sign_in THEN 1 ELSE 0 END;
  is_live int := CASE WHEN NEW.deleted_at IS NULL AND NOT NEW.can_sign_in THEN 1 ELSE 0 END;
  has_membership int := CASE WHEN EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = NEW.user_id) THEN 1 ELSE 0 END;
BEGIN
  PERFORM stat_counters_add(
    is_live - was_live,
    is_live * NEW.status::int - was_live * OLD.status::int,
    is_live * (NOT NEW.status)::int - was_live * (NOT OLD.status)::int,
    (is_live - was_live) * has_membership);
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER users_counters_update AFTER UPDATE ON public.users FOR EACH ROW WHEN (((old.status IS DISTINCT FROM new.status) OR (old.deleted_at IS DISTINCT FROM new.deleted_at) OR (old.can_sign_in IS DISTINCT FROM new.can_sign_in))) EXECUTE FUNCTION users_counters_update();

CREATE OR REPLACE FUNCTION public.users_counters_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM stat_counters_add(-count(*), -count(*) FILTER (WHERE status), -count(*) FILTER (WHERE NOT status), 0)
  FROM old_rows WHERE deleted_at IS NULL AND NOT can_sign_in;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER users_counters_delete AFTER DELETE ON public.users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION users_counters_delete();

CREATE OR REPLACE FUNCTION public.memberships_counters_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM stat_counters_add(0, 0, 0, count(*))
  FROM new_rows n JOIN users u ON u.user_id = n.user_id WHERE u.deleted_at IS NULL AND NOT u.can_sign_in;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER memberships_counters_insert AFTER INSERT ON public.memberships REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memberships_counters_insert();

CREATE OR REPLACE FUNCTION public.memberships_counters_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM stat_counters_add(0, 0, 0, -count(*))
  FROM old_rows o JOIN users u ON u.user_id = o.user_id WHERE u.deleted_at IS NULL AND NOT u.can_sign_in;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER memberships_counters_delete AFTER DELETE ON public.memberships REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memberships_counters_delete();
