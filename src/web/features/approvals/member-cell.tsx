import { Text } from '@mantine/core';
import type { Approval } from '../../../contract/approvals';
import { TruncatedText } from '../../components/truncated-text';
import { formatCount } from '../../lib/format';
import { isBankMoney } from './approval-kinds';

/**
 * Whom a request's money concerns, in the queues' Member column: the member, or for a bank
 * batch's release and a file's returns (many members at once) how many transfers it moves, or
 * "No member" for a change that names none (a plan, the settings).
 */
export function ApprovalMemberCell({ approval: a, maxWidth }: { approval: Approval; maxWidth: number }) {
  if (a.userId !== null) {
    return (
      <div>
        <TruncatedText fw={600} maxWidth={maxWidth}>{a.userName ?? `Member ${a.userId}`}</TruncatedText>
        <Text size="xs" c="dimmed">{`ID: ${a.userId}`}</Text>
      </div>
    );
  }
  const lines = a.details?.lines;
  if (isBankMoney(a.kind) && typeof lines === 'number') {
    return <Text size="sm" c="dimmed">{`${formatCount(lines)} bank ${lines === 1 ? 'transfer' : 'transfers'}`}</Text>;
  }
  return <Text size="sm" c="dimmed">No member</Text>;
}
