-- Dashboard counters and ledger day totals, kept by triggers in the writer's own transaction,
-- so that no request counts a million rows. Statement-level triggers with transition tables
-- keep bulk loads (seeding) set-based.
INSERT INTO stat_counters (name, value) VALUES
  ('users_total', 0), ('users_active', 0), ('users_inactive', 0), ('membership_users', 0);
--> statement-breakpoint
CREATE FUNCTION stat_counters_add(d_total bigint, d_active bigint, d_inactive bigint, d_members bigint)
RETURNS void LANGUAGE sql AS $$
  UPDATE stat_counters c SET value = c.value + d.delta
  FROM (VALUES ('users_total', d_total), ('users_active', d_active),
               ('users_inactive', d_inactive), ('membership_users', d_members)) AS d(name, delta)
  WHERE c.name = d.name AND d.delta <> 0;
$$;
--> statement-breakpoint
CREATE FUNCTION users_counters_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stat_counters_add(count(*), count(*) FILTER (WHERE status), count(*) FILTER (WHERE NOT status), 0)
  FROM new_rows WHERE deleted_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_counters_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION users_counters_insert();
--> statement-breakpoint
CREATE FUNCTION users_counters_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_live int := CASE WHEN OLD.deleted_at IS NULL THEN 1 ELSE 0 END;
  is_live int := CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE 0 END;
  has_membership int := CASE WHEN EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = NEW.user_id) THEN 1 ELSE 0 END;
BEGIN
  PERFORM stat_counters_add(
    is_live - was_live,
    is_live * NEW.status::int - was_live * OLD.status::int,
    is_live * (NOT NEW.status)::int - was_live * (NOT OLD.status)::int,
    (is_live - was_live) * has_membership);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_counters_update AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION users_counters_update();
--> statement-breakpoint
CREATE FUNCTION users_counters_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stat_counters_add(-count(*), -count(*) FILTER (WHERE status), -count(*) FILTER (WHERE NOT status), 0)
  FROM old_rows WHERE deleted_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_counters_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION users_counters_delete();
--> statement-breakpoint
CREATE FUNCTION memberships_counters_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stat_counters_add(0, 0, 0, count(*))
  FROM new_rows n JOIN users u ON u.user_id = n.user_id WHERE u.deleted_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_counters_insert AFTER INSERT ON memberships
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memberships_counters_insert();
--> statement-breakpoint
CREATE FUNCTION memberships_counters_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stat_counters_add(0, 0, 0, -count(*))
  FROM old_rows o JOIN users u ON u.user_id = o.user_id WHERE u.deleted_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_counters_delete AFTER DELETE ON memberships
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memberships_counters_delete();
--> statement-breakpoint
CREATE FUNCTION ledger_daily_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_daily AS d (day, kind, shard, total_paise, entries)
  SELECT (created_at AT TIME ZONE 'Asia/Kolkata')::date, kind, (user_id % 8)::smallint, sum(amount_paise), count(*)
  FROM new_rows GROUP BY 1, 2, 3
  ON CONFLICT (kind, day, shard) DO UPDATE
    SET total_paise = d.total_paise + EXCLUDED.total_paise, entries = d.entries + EXCLUDED.entries;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_daily_insert AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_daily_insert();
--> statement-breakpoint
-- The ledger is immutable: a correction is a new row, never an edit.
CREATE FUNCTION ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries rows are immutable';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_immutable BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
