import { BANK_LINE_STATUS_LABELS, type BankLine, type BankLineStatus } from '../../../contract/bank-transfers';
import { StatusBadge, type Tone } from '../../components/status-badge';

const LINE_TONES: Record<BankLineStatus, Tone> = { queued: 'neutral', in_transit: 'info', settled: 'positive', returned: 'negative', cancelled: 'neutral' };

type LineState = Pick<BankLine, 'status' | 'returnApprovalStatus'>;

/** In transit with its return awaiting a second operator: the bank has answered, the money has not moved yet. */
export const returnAwaits = (l: LineState) => l.status === 'in_transit' && l.returnApprovalStatus === 'pending';

/** A bank transfer line's state, a held return said so. */
export function BankLineBadge({ line }: { line: LineState }) {
  return returnAwaits(line)
    ? <StatusBadge tone="warning">Return awaits approval</StatusBadge>
    : <StatusBadge tone={LINE_TONES[line.status]}>{BANK_LINE_STATUS_LABELS[line.status]}</StatusBadge>;
}
