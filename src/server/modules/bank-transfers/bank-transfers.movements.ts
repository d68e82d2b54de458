import { z } from 'zod';
import { bankTransfersApi } from '../../../contract/bank-transfers.ts';
import { defineMovement } from '../../lib/money/movement.ts';
import { replayBankReturns } from './bank-answers.service.ts';
import { replayBankRelease } from './bank-transfers.service.ts';

/** Bank transfers' movements (docs/structure.md, "A money movement"): a gathered batch released to the bank. */
export const bankBatchRelease = defineMovement({
  kind: 'bank_batch_release',
  permission: bankTransfersApi.release.access,
  input: z.object({ batchId: z.coerce.number() }),
  fourEyes: { holds: 'always', rule: 'Always released by a second operator with money_approve, never the one who gathered the batch or asked to release it' },
  execute: (tx, money, { batchId }, checker) => replayBankRelease(tx, money, checker, batchId),
});

/** The rejections of an imported response file, credited back to the members' wallets. */
export const bankReturns = defineMovement({
  kind: 'bank_returns',
  permission: bankTransfersApi.importResponse.access,
  input: z.object({}),
  fourEyes: { holds: 'always', rule: 'A response file\u2019s rejections always wait for a second operator with money_approve, never the one who imported it; a signed webhook from the provider returns at once' },
  execute: (tx, money) => replayBankReturns(tx, money),
});
