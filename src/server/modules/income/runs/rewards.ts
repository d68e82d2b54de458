import type { RunKindHandler } from './kind.ts';
import { notBuilt } from './not-built.ts';

/** referral_bonus_10_users: once, when a member reaches 10 active direct referrals (issue 16). */
export const referralBonus: RunKindHandler = notBuilt('referral_bonus');
/** monthlyReward: by rank or by team-business target, as the settings say (issue 16). */
export const monthlyReward: RunKindHandler = notBuilt('monthly_reward');
