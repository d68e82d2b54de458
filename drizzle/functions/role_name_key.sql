-- roles.name_key: the role's name as compared for uniqueness (issue 22), so that "admin", "ADMIN",
-- "Admın" (dotless i), "Аdmin" (Cyrillic A) and "Admin" followed by a zero-width space are one name.
-- NFKC, case folded, invisible characters removed, blanks collapsed, confusable letters folded to
-- the Latin letter they look like. The unique constraint roles_name_key_unique refuses the second.
-- Each source letter pairs with the target letter at the same place (32 each: a 33rd target letter
-- once shifted the Greek ones and the dotless i onto wrong letters). Reads: roles.name.
-- History: drizzle/0022; the UPDATE at the end re-keys rows keyed by an earlier text of the
-- function (a look-alike of an earlier row keeps the migration's ' #id' suffix).

CREATE OR REPLACE FUNCTION public.role_name_key(name text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT btrim(regexp_replace(
    translate(
      lower(normalize(
        regexp_replace(name, '[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]', '', 'g'),
        NFKC)),
      -- Cyrillic and Greek letters that look Latin, the dotless i, and Latin look-alikes.
      'аеорсухкмнтвіјѕԁɡӏαεικνορτυχγıłø',
      'aeopcyxkmhtbijsdglaeikvoptuxyilo'),
    '\s+', ' ', 'g'));
$function$;

CREATE OR REPLACE FUNCTION public.roles_name_key()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.name_key := role_name_key(NEW.name);
  RETURN NEW;
END $function$;

CREATE OR REPLACE TRIGGER roles_name_key BEFORE INSERT OR UPDATE OF name ON public.roles FOR EACH ROW EXECUTE FUNCTION roles_name_key();

UPDATE public.roles r SET name_key = k.key
  FROM (SELECT o.role_id, role_name_key(o.name) || CASE WHEN EXISTS (
          SELECT 1 FROM public.roles p WHERE p.role_id < o.role_id AND role_name_key(p.name) = role_name_key(o.name))
        THEN ' #' || o.role_id ELSE '' END AS key FROM public.roles o) k
 WHERE k.role_id = r.role_id AND r.name_key IS DISTINCT FROM k.key;
