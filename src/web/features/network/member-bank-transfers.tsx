import { useState } from 'react';
import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { BankLine } from '../../../contract/bank-transfers';
import type { Column } from '../../components/data-table';
import { QueryTable } from '../../components/query-table';
import { TruncatedText } from '../../components/truncated-text';
import { formatCount, formatDateTime, formatINR } from '../../lib/format';
import { BankLineBadge, memberBankLinesQuery } from '../bank-transfers/bank-transfers.api';
import { MemberSection } from './member-sections';

const PAGE_SIZE = 10;

const columns: Column<BankLine>[] = [
  { header: 'Reference', cell: (l) => l.reference },
  { header: 'Amount', cell: (l) => formatINR(l.amount) },
  { header: 'Account', cell: (l) => `${l.accountNumber} · ${l.ifsc}` },
  { header: 'Status', cell: (l) => <BankLineBadge line={l} /> },
  { header: 'Sent', cell: (l) => (l.inTransitSince ? formatDateTime(l.inTransitSince) : '—') },
  { header: 'Answered', cell: (l) => { const at = l.settledAt ?? l.returnedAt; return at ? formatDateTime(at) : '—'; } },
  { header: 'UTR / Reason', cell: (l) => <TruncatedText maxWidth={200}>{l.utr ?? l.returnReason ?? '—'}</TruncatedText> },
];

/**
 * Where the member's withdrawn money is: what waits to be gathered (or cannot be, without a
 * primary bank account) and every transfer sent to their bank, newest first, with its state.
 */
export function MemberBankTransfers({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const lines = useQuery(memberBankLinesQuery(userId, page, PAGE_SIZE));
  const waiting = lines.data?.waiting;
  return (
    <MemberSection id="bank-transfers-title" title="Transfers to the bank" gap="sm">
      {waiting && waiting.count > 0 && (
        <Text size="sm" c={waiting.withoutAccount ? 'orange.8' : undefined}>
          {`${formatCount(waiting.count)} approved ${waiting.count === 1 ? 'withdrawal' : 'withdrawals'} (${formatINR(waiting.total)}) `}
          {waiting.withoutAccount
            ? 'cannot be sent: the member has no primary bank account.'
            : `${waiting.count === 1 ? 'waits' : 'wait'} for the next bank batch.`}
        </Text>
      )}
      <QueryTable
        query={lines}
        page={page}
        onPage={setPage}
        limit={PAGE_SIZE}
        caption="Transfers to the member's bank"
        columns={columns}
        rowKey={(l) => l.id}
        empty="Nothing has been sent to this member's bank yet."
      />
    </MemberSection>
  );
}
