import { sql } from 'drizzle-orm';
import { uplineCte } from '../network/tree.ts';

/**
 * Level income (issue 16): on each activation the uplines 1–10 levels up get a share of the
 * membership price, floor(price × bp_k / 10,000) paise for level k, in the activation's
 * transaction. An upline is *active* when live (deleted_at null), status true and holding a
 * membership with status 'active'. Without compression level k is the referrer k levels up and
 * an inactive one's share is not paid; with compression level k's share goes to the k-th active
 * upline going up (at most MAX_WALK levels are walked).
 */

/** How far up compression looks for active uplines. */
export const MAX_WALK = 50;

export interface LevelShare {
  level: number;
  userId: number;
  amountPaise: number;
}

/** price × bp / 10,000 rounded down to the paisa, in integers only. */
export const shareOf = (pricePaise: number, bp: number) => {
  const product = pricePaise * bp;
  return (product - (product % 10_000)) / 10_000;
};

/**
 * The CTEs of the activation's one write statement (activation.repository postActivation) that
 * find who gets what; a recursive WITH must open the statement. `up`: the member's uplines,
 * `maxDepth` levels at most (the network's upline walk, network/tree.ts). `locked`: the member's row and every upline's, locked in user-id
 * order (with their balance as of the lock), so two activations under a shared upline never
 * deadlock and the balances later moved in the statement cannot change meanwhile. `shares`
 * (level, user_id, amount): level k of `levelBp` goes to the upline at depth k (no compression)
 * or to the k-th active upline (compression); inactive uplines and zero shares get nothing;
 * amount = floor(price × bp_k / 10,000). Every lookup is by primary key or unique index, whatever
 * the planner's row estimates: the ids go to the lock as an array (an index scan on users_pkey),
 * and each upline's membership is a correlated look-up on memberships.user_id (unique).
 */
export function levelIncomeCtes(memberId: number, maxDepth: number, levelBp: readonly number[], pricePaise: number, compression: boolean) {
  return sql`
    ${uplineCte(memberId, maxDepth)}, locked as (
      select u.user_id, u.status, u.deleted_at, u.balance_paise from users u
       where u.user_id = any (array(select user_id from up union all select ${memberId}::int8))
       order by u.user_id for update
    ), receivers as (
      select a.user_id, case when ${compression}::boolean then row_number() over (order by a.depth) else a.depth end as level
        from (select up.user_id, up.depth from up join locked l on l.user_id = up.user_id
               where l.deleted_at is null and l.status
                 and (select m.status from memberships m where m.user_id = up.user_id) = 'active') a
    ), shares as (
      select r.level::int as level, r.user_id, ${pricePaise}::int8 * bp.bp / 10000 as amount
        from receivers r join unnest(${`{${levelBp.join(',')}}`}::int8[]) with ordinality as bp(bp, level) on bp.level = r.level
       where ${pricePaise}::int8 * bp.bp / 10000 > 0
    )`;
}
