/**
 * The member-search rule, written once. A (lower-cased) term matches a member whose name contains
 * it (any case), whose email starts with it, whose phone starts with it (only a term of digits,
 * a + allowed first), or whose user id it is (only 1 to 15 digits). Two readers follow it:
 * - the users list's WHERE (`memberSearchMatch`), which decides in TypeScript which conditions a
 *   term can meet, so that each remaining condition finds its own index;
 * - member_search_match, the SQL function the search_counts triggers call to keep frequent
 *   searches' counts exact: drizzle/functions/member_search_match.sql is generated from this file
 *   by `npm run db:functions` (a test fails while the file and this rule differ).
 */

type Clause =
  /** The escaped term within the lower-cased column. */
  | { column: string; match: 'contains-lowered' }
  /** The column starts with the escaped term. */
  | { column: string; match: 'prefix' }
  /** The column (a bigint) equals the term as a number. */
  | { column: string; match: 'number' };

/**
 * The conditions, any of which is a match, each only for terms its `when` accepts. A `when` is
 * written as a regular expression that JavaScript and PostgreSQL (`~`) read alike.
 */
const RULE: readonly (Clause & { when?: RegExp })[] = [
  { column: 'full_name', match: 'contains-lowered' },
  { column: 'email', match: 'prefix' },
  { column: 'phone', match: 'prefix', when: /^\+?\d+$/ },
  { column: 'user_id', match: 'number', when: /^\d{1,15}$/ },
];

/** Escapes LIKE wildcards so a search term matches literally. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The rule as the users list's condition on `users u`, for a lower-cased term: only the
 * conditions this term can meet, each with its value bound by `arg` (which adds a parameter and
 * answers its placeholder).
 */
export function memberSearchMatch(term: string, arg: (value: unknown) => string): string {
  const any = RULE.filter((c) => !c.when || c.when.test(term)).map((c) => {
    if (c.match === 'contains-lowered') return `lower(u.${c.column}) like ${arg(`%${likeEscape(term)}%`)}`;
    if (c.match === 'prefix') return `u.${c.column} like ${arg(`${likeEscape(term)}%`)}`;
    return `u.${c.column} = ${arg(Number(term))}`;
  });
  return `(${any.join(' or ')})`;
}

function clauseSql(c: Clause & { when?: RegExp }): string {
  const test =
    c.match === 'contains-lowered' ? `lower(${c.column}) LIKE '%' || e || '%'`
    : c.match === 'prefix' ? `${c.column} LIKE e || '%'`
    : `${c.column} = term::int8`;
  return c.when ? `CASE WHEN term ~ '${c.when.source.replaceAll("'", "''")}' THEN ${test} ELSE false END` : test;
}

/**
 * The text of drizzle/functions/member_search_match.sql: the rule for one member row, with the
 * level and rank filters of a kept count (0 = any), in the form pg_get_functiondef prints it.
 */
export function memberSearchFunctionSql(): string {
  return `-- GENERATED from src/server/db/member-search.ts by \`npm run db:functions\`: edit the rule there.
-- Whether a member counts for a cached search (search_counts): exactly the users list's search,
-- live, at the level and rank asked for (0 = any). Called by the search_counts triggers.
-- Reads (as arguments): users.deleted_at, users.level, users.rank_id, users.full_name, users.email,
-- users.phone, users.user_id.
-- History: drizzle/0009.

CREATE OR REPLACE FUNCTION public.member_search_match(term text, level_key integer, rank_key integer, deleted_at timestamp with time zone, lvl integer, rank_id integer, full_name text, email text, phone text, user_id bigint)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT coalesce(deleted_at IS NULL
     AND (level_key = 0 OR lvl = level_key)
     AND (rank_key = 0 OR rank_id = rank_key)
     AND (${RULE.map(clauseSql).join('\n          OR ')}), false)
    FROM (SELECT replace(replace(replace(term, '\\', '\\\\'), '%', '\\%'), '_', '\\_') AS e) x
$function$;
`;
}
