import { APPROVAL_KINDS, type ApprovalKind } from '../../../contract/approvals';

export const kindLabel = (kind: ApprovalKind) => APPROVAL_KINDS.find((k) => k.value === kind)?.label ?? kind;

/** The bank's kinds: a batch's release and a file's returns, each moving many members' money at once. */
export const isBankMoney = (kind: ApprovalKind): kind is 'bank_batch_release' | 'bank_returns' => kind === 'bank_batch_release' || kind === 'bank_returns';
