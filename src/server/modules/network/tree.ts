import { sql, type SQL } from 'drizzle-orm';

/**
 * Walks of the referral tree as SQL pieces (`with recursive` CTEs), for the statements that walk
 * it inside a larger set-based statement: activation's level income (one statement that finds,
 * locks and credits the uplines), the runs' team figures (40,000 members a chunk) and the demo
 * generator's level income (every seeded activation's uplines at once). A piece, not
 * a function that runs its own query, so that each of those stays one statement with its plan.
 * The statement that uses one must open with `with recursive`. The network's own walks (the
 * upline chain, the fallback downline walk) are in network.repository.ts.
 */

/**
 * The CTE `up(user_id, depth)`: the uplines of `memberId`, nearest first (depth 1 is the
 * referrer), `maxDepth` levels at most, one primary-key look-up a level. A deleted upline stays in
 * the chain (referrals keep their referrer).
 */
export const uplineCte = (memberId: number, maxDepth: number): SQL => sql`up (user_id, depth) as (
      select u.referred_by, 1 from users u where u.user_id = ${memberId} and u.referred_by is not null
      union all
      select u.referred_by, up.depth + 1 from up join users u on u.user_id = up.user_id
       where u.referred_by is not null and up.depth < ${maxDepth}
    )`;

/**
 * The CTE `up(member, user_id, depth, …carry)` as text, for statements written as text (the demo
 * generator's): the uplines of every row of `rows` (a table with user_id and referred_by), nearest
 * first, `maxDepth` levels at most, each carrying its row's `carry` columns. One recursive walk
 * for all the rows at once.
 */
export const uplinesOfEachText = (rows: string, carry: readonly string[], maxDepth: number): string =>
  `up (member, user_id, depth${carry.map((c) => `, ${c}`).join('')}) as (
      select a.user_id, a.referred_by, 1${carry.map((c) => `, a.${c}`).join('')} from ${rows} a where a.referred_by is not null
      union all
      select up.member, u.referred_by, up.depth + 1${carry.map((c) => `, up.${c}`).join('')} from up join users u on u.user_id = up.user_id
       where u.referred_by is not null and up.depth < ${maxDepth}
    )`;

/**
 * The CTE `team_walk(root, member, live, depth)`: everyone below each member of `roots` (a CTE or
 * table name with a user_id column), `maxDepth` levels at most, deleted members too (`live` says
 * which; their referrals stay in the tree). Walks down from the roots through
 * users_referred_by_idx; a member is met once per ancestor among the roots.
 */
export const downlineWalkCte = (roots: SQL, maxDepth: number): SQL => sql`team_walk(root, member, live, depth) as (
    select r.user_id, u.user_id, u.deleted_at is null, 1 from ${roots} r join users u on u.referred_by = r.user_id
    union all
    select w.root, u.user_id, u.deleted_at is null, w.depth + 1
      from team_walk w join users u on u.referred_by = w.member where w.depth < ${maxDepth}
  )`;
