import { z } from 'zod';
import { rechargeBody, walletApi, withdrawalDecisionBody } from '../../../contract/wallet.ts';
import { defineMovement } from '../../lib/money/movement.ts';
import { decideWithdrawal, rechargeOrWithdraw } from './wallet.service.ts';

/** The wallet's movements (docs/structure.md, "A money movement"): a credit, a debit, a withdrawal request approved. */

/** A credit or a debit by an operator: one body, one function; only the daily limit it counts against differs. */
const operatorMovement = <K extends 'wallet_recharge' | 'wallet_withdrawal'>(kind: K, dailyLimit: 'credit' | 'debit') =>
  defineMovement({
    kind,
    permission: walletApi.recharge.access,
    input: rechargeBody,
    fourEyes: {
      holds: 'summed', dailyLimit,
      rule: `Waits when what the maker moved to and from the member today passes the approval threshold; counts against the maker\u2019s daily ${dailyLimit} limit`,
    },
    execute: (tx, money, body) => rechargeOrWithdraw(tx, money, body),
  });

export const walletRecharge = operatorMovement('wallet_recharge', 'credit');
export const walletWithdrawal = operatorMovement('wallet_withdrawal', 'debit');

/** The approval of a member's withdrawal request: the stored decision names its request. */
export const withdrawalApproval = defineMovement({
  kind: 'withdrawal_approval',
  permission: walletApi.decideWithdrawal.access,
  input: withdrawalDecisionBody.extend({ withdrawalId: z.coerce.number() }),
  fourEyes: {
    holds: 'summed', dailyLimit: 'debit',
    rule: 'Approving a request waits when what the maker moved to and from the member today passes the approval threshold; one pending approval per request',
  },
  execute: (tx, money, { withdrawalId, ...decision }) => decideWithdrawal(tx, money, withdrawalId, decision),
});
