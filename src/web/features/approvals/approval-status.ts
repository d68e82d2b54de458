import type { ApprovalStatus } from '../../../contract/approvals';
import type { Tone } from '../../components/status-badge';

export const STATUS_LABELS: Record<ApprovalStatus, string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected', expired: 'Expired' };
export const STATUS_TONES: Record<ApprovalStatus, Tone> = { pending: 'warning', approved: 'positive', rejected: 'neutral', expired: 'negative' };
