import { z } from 'zod';
import { defineMovement } from '../../lib/money/movement.ts';
import { replayBankRelease } from './bank-transfers.service.ts';

/** Bank transfers' movement (docs/structure.md, "A money movement"): a gathered batch released to the bank. */
export const bankBatchRelease = defineMovement({
  kind: 'bank_batch_release',
  input: z.object({ batchId: z.coerce.number() }),
  fourEyes: { holds: 'always', rule: 'Always released by a second operator with money_approve, never the one who gathered the batch or asked to release it' },
  execute: (tx, money, { batchId }, checker) => replayBankRelease(tx, money, checker, batchId),
});
