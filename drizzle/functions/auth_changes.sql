-- What a session may do is read from sessions, users, roles, role_permissions, permissions and
-- two_factor (auth.repository.ts SESSION_SQL). A transaction that changes a row's column the
-- sessions read takes the next auth version, once, and announces it on 'auth_changed' (issue 23):
-- each server copy empties its session cache when it hears it (modules/auth/session-cache.ts),
-- and the connection that made the change is told by a notice (db/client.ts, authWitness).
-- NOTIFY is delivered at commit, and not at all on rollback. Row triggers, so a statement that
-- changes nothing announces nothing; on users only a real change of a read column counts, so a
-- balance update or the minute's "last used" touch never announces. Reads: auth_epoch.

CREATE OR REPLACE FUNCTION public.announce_auth_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- Once per transaction: the setting is local to it and gone at its end.
  IF current_setting('backoffice.auth_announced', true) IS DISTINCT FROM 'yes' THEN
    PERFORM set_config('backoffice.auth_announced', 'yes', true);
    PERFORM pg_notify('auth_changed', nextval('auth_epoch')::text);
    -- And tells the connection that made the change, in the statement's own answer: the request
    -- that sent it waits for every server copy before it answers; other writes need not.
    RAISE NOTICE 'backoffice: auth changed';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER sessions_auth_change AFTER DELETE OR UPDATE OF token_hash, user_id, expires_at, stage ON public.sessions FOR EACH ROW EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER users_auth_change_update AFTER UPDATE OF username, full_name, email, role_id, deleted_at, status, can_sign_in, unconfirmed ON public.users FOR EACH ROW WHEN (((old.username IS DISTINCT FROM new.username) OR (old.full_name IS DISTINCT FROM new.full_name) OR (old.email IS DISTINCT FROM new.email) OR (old.role_id IS DISTINCT FROM new.role_id) OR (old.deleted_at IS DISTINCT FROM new.deleted_at) OR (old.status IS DISTINCT FROM new.status) OR (old.can_sign_in IS DISTINCT FROM new.can_sign_in) OR (old.unconfirmed IS DISTINCT FROM new.unconfirmed))) EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER users_auth_change_delete AFTER DELETE ON public.users FOR EACH ROW EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER roles_auth_change AFTER INSERT OR DELETE OR UPDATE ON public.roles FOR EACH ROW EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER role_permissions_auth_change AFTER INSERT OR DELETE OR UPDATE ON public.role_permissions FOR EACH ROW EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER permissions_auth_change AFTER INSERT OR DELETE OR UPDATE ON public.permissions FOR EACH ROW EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER two_factor_auth_change AFTER INSERT OR DELETE OR UPDATE OF enabled_at, user_id ON public.two_factor FOR EACH ROW EXECUTE FUNCTION announce_auth_change();
