import type { RunKindHandler } from './kind.ts';
import { notBuilt } from './not-built.ts';

/** Daily payout: every active membership within its duration and cap earns its day (issue 16). */
export const dailyPayout: RunKindHandler = notBuilt('daily_payout');
