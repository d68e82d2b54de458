import type { RunKindHandler } from './kind.ts';
import { notBuilt } from './not-built.ts';

/** Royalty: a pool (a % of the period's revenue) shared by rank weights (issue 16). */
export const royalty: RunKindHandler = notBuilt('royalty');
