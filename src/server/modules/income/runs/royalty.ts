import { sql, type SQL } from 'drizzle-orm';
import { percentToBp } from '../../../../contract/income.ts';
import { rowsOf, type Db } from '../../../db/client.ts';
import type { bookDaily } from '../../../db/schema/books.ts';
import type { ranks } from '../../../db/schema/catalogue.ts';
import type { RunKindHandler, RunPeriod, RunScope } from './kind.ts';
import { creditChunk, endBound, isoWeekOf, monthOf, periodOver, type PaidRow } from './team.ts';

type Rank = typeof ranks.$inferSelect;
type Paise = (typeof bookDaily.$inferSelect)['totalPaise'];
/** The period's membership revenue (book_daily of membership_revenue). */
type RevenueRow = { paise: Paise };
/** A rank's royalty weight. */
type RankWeightRow = Pick<Rank, 'rankId'> & { weight: Rank['royaltyWeight'] };
/** The pool, Σ weight × members, the eligible members and what their shares add up to. */
type PoolRow = { pool: Paise; weightSum: number; eligible: number; shared: Paise };

/**
 * Royalty: a pool (royaltyPoolPercent of the period's revenue, the membership fees) shared by rank
 * weights (issue 16). The period is the calendar month, or the ISO week when
 * settings.royaltyPeriod = 'weekly'.
 *
 * `begin` fixes everything a chunk needs in the run's state: the revenue (the books' membership revenue, from the book_daily
 * rollup, never the ledger), the pool = floor(revenue × bp / 10,000), the weight of each rank,
 * the eligible members' weight sum and what the floors leave unpaid. Eligible: live, status true,
 * joined before the period's end, holding a rank with status true and royalty_weight > 0 (as
 * fixed in the state). Share = floor(pool × weight / Σweights); the leftover stays unpaid.
 * Units: the eligible members, in user id order. Credits: ledger `royalty` rows in the run's
 * income batch (kind 'royalty', run date = the period's last day).
 */

export interface RoyaltyState {
  revenuePaise: number;
  poolBp: number;
  poolPaise: number;
  /** rank id → weight, the ranks that share (status true, weight > 0) when the run began. */
  weights: Record<string, number>;
  weightSum: number;
  eligible: number;
  /** Σ of the shares (what the run pays) and pool − that (what floor leaves unpaid). */
  sharedPaise: number;
  leftoverPaise: number;
}

/** The CTE `rank_weights(rank_id, weight)` from the state's weights. */
function weightsCte(weights: Record<string, number>): SQL {
  const ids = Object.keys(weights).map(Number);
  const values = ids.map((id) => weights[String(id)]);
  return sql`rank_weights as (
    select * from unnest(${`{${ids.join(',')}}`}::int[], ${`{${values.join(',')}}`}::int8[]) as w(rank_id, weight))`;
}

/** Eligible members with their weight (a FROM/WHERE part; `rank_weights` must be in scope). */
const eligibleFrom = (period: RunPeriod) => sql`
  users u join rank_weights w on w.rank_id = u.rank_id
  where u.deleted_at is null and u.status and u.created_at < ${endBound(period)}`;

async function stateOf(db: Db, period: RunPeriod, poolPercent: number): Promise<RoyaltyState> {
  const [revenue] = rowsOf<RevenueRow>(await db.execute(sql`
    select coalesce(sum(total_paise), 0)::int8 as paise from book_daily
     where account = 'membership_revenue' and day between ${period.start}::date and ${period.end}::date`));
  const revenuePaise = Math.max(0, Number(revenue.paise));
  const poolBp = percentToBp(poolPercent);
  const ranks = rowsOf<RankWeightRow>(await db.execute(sql`
    select rank_id as "rankId", royalty_weight::int8 as weight from ranks where status and royalty_weight > 0 order by rank_id`));
  const weights: Record<string, number> = Object.fromEntries(ranks.map((r) => [String(r.rankId), Number(r.weight)]));
  // Pool, Σweights and Σshares in SQL with numeric: no float ever touches the money.
  const [row] = rowsOf<PoolRow>(await db.execute(sql`
    with ${weightsCte(weights)},
    pool as (select floor(${revenuePaise}::numeric * ${poolBp}::int8 / 10000)::int8 as paise),
    by_weight as (select w.weight, count(*)::int8 as n from ${eligibleFrom(period)} group by w.weight),
    total as (select coalesce(sum(weight * n), 0)::int8 as weight_sum, coalesce(sum(n), 0)::int8 as eligible from by_weight)
    select pool.paise as pool, total.weight_sum as "weightSum", total.eligible,
           coalesce((select sum(n * floor(pool.paise::numeric * weight / total.weight_sum))
                       from by_weight where total.weight_sum > 0), 0)::int8 as shared
      from pool, total`));
  const poolPaise = Number(row.pool);
  const sharedPaise = Number(row.shared);
  return {
    revenuePaise, poolBp, poolPaise, weights, weightSum: Number(row.weightSum), eligible: Number(row.eligible),
    sharedPaise, leftoverPaise: poolPaise - sharedPaise,
  };
}

const share = (state: RoyaltyState) =>
  sql`floor(${state.poolPaise}::numeric * w.weight / ${Math.max(state.weightSum, 1)}::int8)::int8`;

export const royalty: RunKindHandler = {
  kind: 'royalty',
  periodOf: (day, settings) => (settings.royaltyPeriod === 'weekly' ? isoWeekOf(day) : monthOf(day)),
  periodType: (settings) => settings.royaltyPeriod,
  isDue: periodOver,

  async begin(tx, scope) {
    const state = await stateOf(tx, scope.period, scope.settings.royaltyPoolPercent);
    return {
      total: state.eligible,
      state: state as unknown as Record<string, unknown>,
      batch: { kind: 'royalty', rewardType: null, runDate: scope.period.end },
    };
  },

  async step(tx, scope: RunScope, cursor, limit) {
    const state = scope.state as unknown as RoyaltyState;
    if (state.weightSum === 0 || state.poolPaise === 0 || Object.keys(state.weights).length === 0) {
      return { units: 0, paid: 0, failed: 0, grossPaise: 0, deductionsPaise: 0, failedPaise: 0, cursor, done: true };
    }
    const description = `Royalty income ${scope.period.start} to ${scope.period.end}`;
    return creditChunk(tx, scope, {
      kind: 'royalty',
      description,
      with: sql`${weightsCte(state.weights)},
      chunk as (
        select u.user_id, ${share(state)} as amount from ${eligibleFrom(scope.period)} and u.user_id > ${cursor}::int8
         order by u.user_id limit ${limit}::int
      ),
      award as (select user_id, amount from chunk where amount > 0)`,
      units: sql`(select count(*) from chunk)::int8`,
      cursor: sql`(select max(user_id) from chunk)`,
    }, cursor, limit);
  },

  async preview(db, scope) {
    const state = await stateOf(db, scope.period, scope.settings.royaltyPoolPercent);
    if (state.weightSum === 0 || state.poolPaise === 0) {
      return { units: state.eligible, paid: 0, failed: 0, grossPaise: 0, deductionsPaise: 0, failedPaise: 0 };
    }
    const [row] = rowsOf<PaidRow>(await db.execute(sql`
      with ${weightsCte(state.weights)}
      select count(*) filter (where ${share(state)} > 0)::int8 as paid from ${eligibleFrom(scope.period)}`));
    return {
      units: state.eligible, paid: Number(row.paid), failed: 0, grossPaise: state.sharedPaise, deductionsPaise: 0, failedPaise: 0,
    };
  },

  /** Nothing beyond the ledger: the engine's compensating rows take the credits back. */
  async undo() {},
};
