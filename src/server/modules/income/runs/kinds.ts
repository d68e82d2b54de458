import type { RunKind } from '../../../../contract/income-runs.ts';
import { dailyPayout } from './daily-payout.ts';
import type { RunKindHandler } from './kind.ts';
import { rankPromotion } from './rank-promotion.ts';
import { monthlyReward, referralBonus } from './rewards.ts';
import { royalty } from './royalty.ts';

/** Every kind of run, in the order a catch-up runs a day's work (payouts before month-end kinds). */
export const RUN_HANDLERS: Record<RunKind, RunKindHandler> = {
  daily_payout: dailyPayout,
  royalty,
  referral_bonus: referralBonus,
  monthly_reward: monthlyReward,
  rank_promotion: rankPromotion,
};
