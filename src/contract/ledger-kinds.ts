import { z } from 'zod';

/** Every kind of ledger line, in words (the server's LEDGER_KINDS; a test keeps the two lists equal). */
export const LEDGER_KIND_LABELS = {
  wallet_recharge: 'Wallet Recharge',
  wallet_withdrawal: 'Wallet Withdrawal',
  membership_fee: 'Membership Fee',
  external_payment: 'Paid Outside the Wallet',
  level_income: 'Level Income',
  daily_payout: 'Daily Payout',
  tds: 'TDS',
  admin_charge: 'Admin Charge',
  royalty: 'Royalty',
  reward: 'Reward',
  referral_bonus: 'Referral Bonus',
  admin_transfer: 'Admin Transfer',
  recovery: 'Recovery',
  bank_return: 'Returned by the Bank',
  bank_payout: 'Paid to bank',
} as const;
export type LedgerKindName = keyof typeof LEDGER_KIND_LABELS;
export const LEDGER_KIND_NAMES = Object.keys(LEDGER_KIND_LABELS) as [LedgerKindName, ...LedgerKindName[]];
export const ledgerKind = z.enum(LEDGER_KIND_NAMES, { error: `kind must be one of: ${LEDGER_KIND_NAMES.join(', ')}` });
export const ledgerKindLabel = (kind: string) => LEDGER_KIND_LABELS[kind as LedgerKindName] ?? kind;
