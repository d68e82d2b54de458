import { z } from 'zod';
import { payoutsApi, transferBody } from '../../../contract/payouts.ts';
import { defineMovement } from '../../lib/money/movement.ts';
import { replayBulkPayouts, transferAdmin } from './payouts.service.ts';

/** The payouts' movements (docs/structure.md, "A money movement"): a transfer to a wallet, Pay Now one by one and in bulk. */

const summed = 'Waits when what the maker moved to and from the member today passes the approval threshold; counts against the maker\u2019s daily credit limit';

export const adminTransfer = defineMovement({
  kind: 'admin_transfer',
  permission: payoutsApi.transfer.access,
  input: transferBody,
  fourEyes: { holds: 'summed', dailyLimit: 'credit', rule: summed },
  execute: (tx, money, body) => transferAdmin(tx, money, body),
});

export const payPayout = defineMovement({
  kind: 'pay_payout',
  permission: payoutsApi.transfer.access,
  input: transferBody,
  fourEyes: { holds: 'summed', dailyLimit: 'credit', rule: `${summed}; one pending request per payout` },
  execute: (tx, money, body) => transferAdmin(tx, money, body),
});

/** The payouts of a bulk Pay Now that the threshold held, in one request (a later chunk of the same bulk adds to it). */
export const payPayoutBulk = defineMovement({
  kind: 'pay_payout_bulk',
  permission: payoutsApi.payBulk.access,
  input: z.object({ payoutIds: z.array(z.unknown()).optional(), bulkId: z.string().optional() }),
  fourEyes: { holds: 'summed', dailyLimit: 'credit', rule: `Each payout as a single Pay Now; those held wait together in one request of the bulk` },
  execute: (tx, money, payload) => replayBulkPayouts(tx, money, payload),
});
