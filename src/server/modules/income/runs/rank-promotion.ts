import type { RunKindHandler } from './kind.ts';
import { notBuilt } from './not-built.ts';

/** Rank promotion: members who meet a higher rank's criteria move up to it, never down (issue 16). */
export const rankPromotion: RunKindHandler = notBuilt('rank_promotion');
