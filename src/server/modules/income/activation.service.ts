import type { ActivationBody } from '../../../contract/income.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { MoneyResult } from '../../lib/idempotency.ts';
import type { MoneyContext } from '../approvals/four-eyes.ts';

/**
 * Activates a plan for a member: the fee (membership_fee) and the uplines' level income in one
 * transaction; paid outside the wallet above the threshold, it waits for a second operator (202).
 * Groundwork placeholder.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- placeholder until built
export async function activateMembership(_tx: Db, _money: MoneyContext, _body: ActivationBody): Promise<MoneyResult> {
  throw new AppError(501, 'Membership activation is not built yet');
}
