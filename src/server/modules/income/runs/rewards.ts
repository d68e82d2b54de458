import { sql, type SQL } from 'drizzle-orm';
import { type IncomeSettings } from '../../../../contract/income.ts';
import { rowsOf, type Db } from '../../../db/client.ts';
import type { ranks } from '../../../db/schema/catalogue.ts';
import type { ledgerEntries } from '../../../db/schema/money.ts';
import { inRange, type RunKindHandler, type RunPeriod, type Tally } from './kind.ts';
import { chunkCte, creditChunk, dailyDue, directsCte, memberCount, monthOf, periodOver, teamCtes, type PaidRow } from './team.ts';

type Rank = typeof ranks.$inferSelect;
/** The referral bonus's preview: members gone through and members it would pay. */
type UnitsPaidRow = Pick<Tally, 'units'> & PaidRow;
/** A rank's monthly reward. */
type RankRewardRow = Pick<Rank, 'rankId'> & { paise: Rank['monthlyRewardPaise'] };
/** The monthly reward's preview: members it would pay and the sum. */
type AwardTotalsRow = PaidRow & { gross: (typeof ledgerEntries.$inferSelect)['amountPaise'] };

/**
 * The reward runs (issue 16), credits as ledger `reward` rows in the run's income batch (kind
 * 'reward'), which the Reward Income screen reads by reward type.
 *
 * referral_bonus (daily, reward type 'referral_bonus_10_users'): a live member with status true
 * and at least 10 active direct referrals (live, status true, holding an 'active' membership) gets
 * settings.referralBonus once, ever: the reward_grants row (primary key user + type) is inserted in
 * the same statement as the credit, ON CONFLICT DO NOTHING, so a member already granted (by any
 * run, even a concurrent one) is never paid again.
 *
 * monthly_reward (per calendar month, reward type 'monthlyReward'): mode 'rank' → every live
 * member with status true holding a rank (status true) gets its monthly_reward_paise (as fixed
 * in the run's state at its start); mode 'target' → every live member with status true whose team
 * business in the month (membership fees sold that month to members below them, all levels) is at
 * least monthlyRewardTarget gets monthlyRewardAmount; mode 'off' → nothing.
 *
 * Units: members (users) in id order.
 */

export const REFERRAL_BONUS_TYPE = 'referral_bonus_10_users';
export const MONTHLY_REWARD_TYPE = 'monthlyReward';
/** Active direct referrals a member needs for the one-time referral bonus. */
export const REFERRAL_BONUS_DIRECTS = 10;

const rupeesToPaise = (rupees: number) => Math.round(rupees * 100);
/** The chunk's units and end, from chunkCte's `bounds`. */
const CHUNK_BOUNDS = { units: sql`(select units from bounds)`, cursor: sql`(select hi from bounds)` };
const NOTHING: Tally = { units: 0, paid: 0, failed: 0, grossPaise: 0, deductionsPaise: 0, failedPaise: 0 };

// ---- referral_bonus_10_users ----

/** Members who qualify and were never granted it: `qualified(user_id)` over `directs`. */
const qualifiedCte = sql`
  qualified as (
    select d.user_id from directs d join users u on u.user_id = d.user_id and u.deleted_at is null and u.status
     where d.n >= ${REFERRAL_BONUS_DIRECTS}
       and not exists (select 1 from reward_grants g where g.user_id = d.user_id and g.reward_type = ${REFERRAL_BONUS_TYPE}))`;

export const referralBonus: RunKindHandler = {
  kind: 'referral_bonus',
  periodOf: (day) => ({ start: day, end: day }),
  isDue: dailyDue,

  async begin(tx, scope) {
    const amountPaise = rupeesToPaise(scope.settings.referralBonus);
    if (amountPaise === 0) return { total: 0, state: { amountPaise } };
    return {
      total: await memberCount(tx),
      state: { amountPaise },
      batch: { kind: 'reward', rewardType: REFERRAL_BONUS_TYPE, runDate: scope.period.end },
    };
  },

  async step(tx, scope, cursor, limit) {
    const amountPaise = Number(scope.state.amountPaise ?? 0);
    if (amountPaise === 0) return { ...NOTHING, cursor, done: true };
    return creditChunk(tx, scope, {
      kind: 'reward',
      description: `Referral bonus: ${REFERRAL_BONUS_DIRECTS} active direct referrals`,
      with: sql`${chunkCte(cursor, limit)}, ${directsCte(cursor)}, ${qualifiedCte},
      granted as (
        insert into reward_grants (user_id, reward_type, run_id)
        select user_id, ${REFERRAL_BONUS_TYPE}, ${scope.runId}::int8 from qualified order by user_id
        on conflict do nothing returning user_id
      ),
      award as (select user_id, ${amountPaise}::int8 as amount from granted)`,
      ...CHUNK_BOUNDS,
    }, cursor, limit);
  },

  async preview(db, scope) {
    const amountPaise = rupeesToPaise(scope.settings.referralBonus);
    if (amountPaise === 0) return NOTHING;
    const [row] = rowsOf<UnitsPaidRow>(await db.execute(sql`
      with ${directsCte(null)}, ${qualifiedCte}
      select (select count(*) from users)::int8 as units, count(*)::int8 as paid from qualified`));
    const paid = Number(row.paid);
    return { ...NOTHING, units: Number(row.units), paid, grossPaise: paid * amountPaise };
  },

  /** The run's grants go, so a corrected run may grant them again (the engine took the money back). */
  async undo(tx, scope, members) {
    await tx.execute(sql`
      delete from reward_grants where run_id = ${scope.runId}::int8 and reward_type = ${REFERRAL_BONUS_TYPE} and ${inRange(sql`user_id`, members)}`);
  },
};

// ---- monthlyReward ----

interface MonthlyState {
  mode: IncomeSettings['monthlyRewardMode'];
  /** mode 'rank': rank id → paise, ranks with status true and a reward > 0 when the run began. */
  rankRewards?: Record<string, number>;
  /** mode 'target': the team business to reach and what reaching it pays, paise. */
  targetPaise?: number;
  amountPaise?: number;
}

function rankRewardsCte(rewards: Record<string, number>): SQL {
  const ids = Object.keys(rewards);
  return sql`rank_rewards as (
    select * from unnest(${`{${ids.join(',')}}`}::int[], ${`{${ids.map((id) => rewards[id]).join(',')}}`}::int8[]) as r(rank_id, amount))`;
}

/** What the month pays, or null when it pays nothing (mode off, no rewarding rank, amount 0). */
async function monthlyStateOf(db: Db, settings: IncomeSettings): Promise<MonthlyState | null> {
  if (settings.monthlyRewardMode === 'rank') {
    const ranks = rowsOf<RankRewardRow>(await db.execute(sql`
      select rank_id as "rankId", monthly_reward_paise::int8 as paise from ranks
       where status and monthly_reward_paise > 0 order by rank_id`));
    if (ranks.length === 0) return null;
    return { mode: 'rank', rankRewards: Object.fromEntries(ranks.map((r) => [String(r.rankId), Number(r.paise)])) };
  }
  if (settings.monthlyRewardMode === 'target') {
    const amountPaise = rupeesToPaise(settings.monthlyRewardAmount);
    if (amountPaise === 0) return null;
    return { mode: 'target', targetPaise: rupeesToPaise(settings.monthlyRewardTarget), amountPaise };
  }
  return null;
}

/** The CTE `award(user_id, amount)` over the members of `members` (a CTE with user_id). */
function awardCtes(state: MonthlyState, period: RunPeriod, members: SQL): SQL {
  if (state.mode === 'rank') {
    return sql`${rankRewardsCte(state.rankRewards ?? {})},
      award as (
        select u.user_id, r.amount from ${members} c join users u on u.user_id = c.user_id
          join rank_rewards r on r.rank_id = u.rank_id
         where u.deleted_at is null and u.status)`;
  }
  return sql`${teamCtes(members, period)},
    award as (
      select u.user_id, ${state.amountPaise ?? 0}::int8 as amount from team t join users u on u.user_id = t.user_id
       where u.deleted_at is null and u.status and t.business > 0 and t.business >= ${state.targetPaise ?? 0}::int8)`;
}

export const monthlyReward: RunKindHandler = {
  kind: 'monthly_reward',
  periodOf: (day) => monthOf(day),
  isDue: periodOver,

  async begin(tx, scope) {
    const state = await monthlyStateOf(tx, scope.settings);
    if (!state) return { total: 0, state: { mode: 'off' } };
    return {
      total: await memberCount(tx),
      state: state as unknown as Record<string, unknown>,
      batch: { kind: 'reward', rewardType: MONTHLY_REWARD_TYPE, runDate: scope.period.end },
    };
  },

  async step(tx, scope, cursor, limit) {
    const state = scope.state as unknown as MonthlyState;
    if (state.mode === 'off') return { ...NOTHING, cursor, done: true };
    const month = scope.period.start.slice(0, 7);
    return creditChunk(tx, scope, {
      kind: 'reward',
      description: `Monthly reward ${month}`,
      recursive: true,
      with: sql`${chunkCte(cursor, limit)}, ${awardCtes(state, scope.period, sql`chunk`)}`,
      ...CHUNK_BOUNDS,
    }, cursor, limit);
  },

  async preview(db, scope) {
    const state = await monthlyStateOf(db, scope.settings);
    if (!state) return NOTHING;
    const units = await memberCount(db);
    const [row] = rowsOf<AwardTotalsRow>(await db.execute(sql`
      with recursive everyone as (select user_id from users), ${awardCtes(state, scope.period, sql`everyone`)}
      select count(*)::int8 as paid, coalesce(sum(amount), 0)::int8 as gross from award`));
    return { ...NOTHING, units, paid: Number(row.paid), grossPaise: Number(row.gross) };
  },

  /** Nothing beyond the ledger: the engine's compensating rows take the rewards back. */
  async undo() {},
};
