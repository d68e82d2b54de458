import type { Db } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import type { MoneyResult } from '../../../lib/idempotency.ts';
import type { MoneyContext } from '../../approvals/four-eyes.ts';

/** What a reversal request carries (and the approval replays). */
export interface ReversalPayload {
  runId: number;
  remarks: string;
}

/**
 * Reverses a completed run by compensating ledger entries (never by deleting); above the approval
 * threshold it is only filed for a second operator (202). Groundwork placeholder.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- placeholder until built
export async function reverseRun(_tx: Db, _money: MoneyContext, _payload: ReversalPayload): Promise<MoneyResult> {
  throw new AppError(501, 'Run reversal is not built yet');
}
