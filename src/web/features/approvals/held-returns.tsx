import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { BankLine } from '../../../contract/bank-transfers';
import type { Column } from '../../components/data-table';
import { QueryTable } from '../../components/query-table';
import { TruncatedText } from '../../components/truncated-text';
import { formatINR } from '../../lib/format';
import { LINES_PAGE_SIZE, returnLinesQuery } from '../bank-transfers/bank-transfers.api';

const columns: Column<BankLine>[] = [
  { header: 'Member', cell: (l) => <TruncatedText maxWidth={180}>{`${l.userName ?? ''} (${l.userId})`}</TruncatedText> },
  { header: 'Reference', cell: (l) => l.reference },
  { header: 'Amount', cell: (l) => formatINR(l.amount) },
  { header: 'Bank\u2019s reason', cell: (l) => <TruncatedText maxWidth={200}>{l.returnReason ?? '—'}</TruncatedText> },
];

/** Returns from the bank: the lines whose money the checker is asked to credit back to the members' wallets. */
export function HeldReturns({ approvalId }: { approvalId: number }) {
  const [page, setPage] = useState(1);
  const lines = useQuery(returnLinesQuery(approvalId, page));
  return (
    <QueryTable
      query={lines}
      page={page}
      onPage={setPage}
      limit={LINES_PAGE_SIZE}
      caption="Transfers the bank returned"
      columns={columns}
      rowKey={(l) => l.id}
      empty="None of its transfers is listed any more."
    />
  );
}
