-- What a session may do is read from sessions, users, roles, role_permissions, permissions and
-- two_factor (auth.repository.ts SESSION_SQL). Every statement that changes one of the columns it
-- reads takes the next auth version and announces it on 'auth_changed' (issue 23): each server copy
-- empties its session cache when it hears it (modules/auth/session-cache.ts). NOTIFY is delivered
-- at commit, and not at all on rollback. Statement-level, and only on the columns the sessions read:
-- a balance update or the minute's "last used" touch announces nothing. Reads: auth_epoch.

CREATE OR REPLACE FUNCTION public.announce_auth_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_notify('auth_changed', nextval('auth_epoch')::text);
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER sessions_auth_change AFTER DELETE OR UPDATE OF token_hash, user_id, expires_at, stage ON public.sessions
  FOR EACH STATEMENT EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER users_auth_change AFTER DELETE OR UPDATE OF username, full_name, email, role_id, deleted_at, status, can_sign_in, unconfirmed ON public.users
  FOR EACH STATEMENT EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER roles_auth_change AFTER INSERT OR DELETE OR UPDATE ON public.roles
  FOR EACH STATEMENT EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER role_permissions_auth_change AFTER INSERT OR DELETE OR UPDATE ON public.role_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER permissions_auth_change AFTER INSERT OR DELETE OR UPDATE ON public.permissions
  FOR EACH STATEMENT EXECUTE FUNCTION announce_auth_change();
CREATE OR REPLACE TRIGGER two_factor_auth_change AFTER INSERT OR DELETE OR UPDATE OF enabled_at, user_id ON public.two_factor
  FOR EACH STATEMENT EXECUTE FUNCTION announce_auth_change();
