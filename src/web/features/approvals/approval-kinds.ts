import { APPROVAL_KINDS, type ApprovalKind } from '../../../contract/approvals';

export const kindLabel = (kind: ApprovalKind) => APPROVAL_KINDS.find((k) => k.value === kind)?.label ?? kind;
