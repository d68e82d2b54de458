-- roles.name_key: the role's name as compared for uniqueness (issue 22), so that "admin", "ADMIN",
-- "Admın" (dotless i), "Аdmin" (Cyrillic A) and "Admin" followed by a zero-width space are one name.
-- NFKC, case folded, invisible characters removed, blanks collapsed, confusable letters folded to
-- the Latin letter they look like. The unique constraint roles_name_key_unique refuses the second.
-- Reads: roles.name. History: drizzle/0022.

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
      'aeopcyxkmhtbijsdgllaeiknoptuxyilo'),
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
