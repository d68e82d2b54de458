import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';

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

export interface Upline {
  userId: number;
  /** 1 = the direct referrer. */
  depth: number;
  active: boolean;
}

export interface LevelShare {
  level: number;
  userId: number;
  amountPaise: number;
}

/**
 * One recursive statement: the member's uplines, `maxDepth` levels at most, with whether each is
 * active. It also locks the member's row and every upline's row in user-id order, so two
 * activations under a shared upline never deadlock (each later update of these rows, the fee and
 * the credits, finds its lock already held).
 */
export async function lockUplines(tx: Db, memberId: number, maxDepth: number): Promise<Upline[]> {
  // Every lookup is by primary key or unique index, whatever the planner's row estimates: the
  // ids go to the lock as an array (an index scan on users_pkey), and each upline's membership is
  // a correlated look-up on memberships.user_id (unique).
  return rowsOf<Upline>(await tx.execute(sql`
    with recursive up (user_id, depth) as (
      select u.referred_by, 1 from users u where u.user_id = ${memberId} and u.referred_by is not null
      union all
      select u.referred_by, up.depth + 1 from up join users u on u.user_id = up.user_id
       where u.referred_by is not null and up.depth < ${maxDepth}
    ), locked as (
      select u.user_id, u.status, u.deleted_at from users u
       where u.user_id = any (array(select user_id from up union all select ${memberId}::int8))
       order by u.user_id for update
    )
    select up.user_id as "userId", up.depth,
           coalesce(l.deleted_at is null and l.status
                    and (select m.status from memberships m where m.user_id = up.user_id) = 'active', false) as active
      from up join locked l on l.user_id = up.user_id
     order by up.depth`));
}

/** price × bp / 10,000 rounded down to the paisa, in integers only. */
export const shareOf = (pricePaise: number, bp: number) => {
  const product = pricePaise * bp;
  return (product - (product % 10_000)) / 10_000;
};

/**
 * Who gets what: level k (1-based) of `levelBp` goes to the upline at depth k (no compression)
 * or to the k-th active upline (compression); inactive uplines and zero shares get nothing.
 */
export function levelShares(uplines: readonly Upline[], levelBp: readonly number[], pricePaise: number, compression: boolean): LevelShare[] {
  const receivers = compression
    ? uplines.filter((u) => u.active).map((u, i) => ({ level: i + 1, userId: u.userId }))
    : uplines.filter((u) => u.active).map((u) => ({ level: u.depth, userId: u.userId }));
  const shares: LevelShare[] = [];
  for (const r of receivers) {
    if (r.level > levelBp.length) break;
    const amountPaise = shareOf(pricePaise, levelBp[r.level - 1]);
    if (amountPaise > 0) shares.push({ ...r, amountPaise });
  }
  return shares;
}

/**
 * One statement posts the credits (ledger kind level_income) and moves the balances. The rows
 * were locked by lockUplines in the same transaction.
 */
export async function creditLevelIncome(
  tx: Db, shares: readonly LevelShare[], memberId: number, actorId: number,
): Promise<void> {
  if (shares.length === 0) return;
  const users = `{${shares.map((s) => s.userId).join(',')}}`;
  const levels = `{${shares.map((s) => s.level).join(',')}}`;
  const amounts = `{${shares.map((s) => s.amountPaise).join(',')}}`;
  await tx.execute(sql`
    with share as (
      select * from unnest(${users}::int8[], ${levels}::int[], ${amounts}::int8[]) as s(user_id, level, amount)
    ), moved as (
      update users u set balance_paise = u.balance_paise + t.amount
        from (select user_id, sum(amount) as amount from share group by user_id) t
       where u.user_id = t.user_id
      returning u.user_id
    )
    insert into ledger_entries (user_id, kind, amount_paise, description, actor_id)
    select s.user_id, 'level_income', s.amount, 'Level ' || s.level || ' income on the membership of member ' || ${memberId}::int8,
           ${actorId}::int8
      from share s order by s.level`);
}
