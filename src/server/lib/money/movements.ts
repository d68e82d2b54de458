import { bankBatchRelease, bankReturns } from '../../modules/bank-transfers/bank-transfers.movements.ts';
import { bankAccountChange } from '../../modules/banks/banks.movements.ts';
import { membershipActivation, planChange, planCreate, settingsChange } from '../../modules/income/income.movements.ts';
import { runRerun, runReversal } from '../../modules/income/runs/runs.movements.ts';
import { adminTransfer, payPayout, payPayoutBulk } from '../../modules/payouts/payouts.movements.ts';
import { panChange } from '../../modules/tax/tax.movements.ts';
import { walletRecharge, walletWithdrawal, withdrawalApproval } from '../../modules/wallet/wallet.movements.ts';
import type { Movements } from './movement.ts';

/**
 * Every kind of money movement that may wait for a second operator, declared in the module that
 * owns it (`<module>.movements.ts`). The approvals replay a request through this list and import
 * no feature module; a new ApprovalKind does not compile until its movement is listed here.
 */
export const MOVEMENTS: Movements = {
  wallet_recharge: walletRecharge,
  wallet_withdrawal: walletWithdrawal,
  withdrawal_approval: withdrawalApproval,
  admin_transfer: adminTransfer,
  pay_payout: payPayout,
  pay_payout_bulk: payPayoutBulk,
  membership_activation: membershipActivation,
  run_reversal: runReversal,
  plan_create: planCreate,
  plan_change: planChange,
  settings_change: settingsChange,
  run_rerun: runRerun,
  bank_account_change: bankAccountChange,
  bank_batch_release: bankBatchRelease,
  bank_returns: bankReturns,
  pan_change: panChange,
};
