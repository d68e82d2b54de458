import { bankChangeRequest, banksApi } from '../../../contract/banks.ts';
import { defineMovement } from '../../lib/money/movement.ts';
import { applyBankChange } from './banks.service.ts';

/** The banks' movement (docs/structure.md, "A money movement"): where a member's money goes. */
export const bankAccountChange = defineMovement({
  kind: 'bank_account_change',
  permission: banksApi.update.access,
  input: bankChangeRequest,
  fourEyes: { holds: 'always', rule: 'A new account number or IFSC, or another primary account, always waits; applied only if the account still has the number it had when filed, and the member the primary' },
  execute: (tx, money, request) => applyBankChange(tx, money, request),
});
