import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { BankLine } from '../../../contract/bank-transfers';
import type { Column } from '../../components/data-table';
import { QueryTable } from '../../components/query-table';
import { TruncatedText } from '../../components/truncated-text';
import { formatINR } from '../../lib/format';
import { LINES_PAGE_SIZE, releaseLinesQuery, returnLinesQuery } from '../bank-transfers/bank-transfers.api';

const member: Column<BankLine> = { header: 'Member', cell: (l) => <TruncatedText maxWidth={180}>{`${l.userName ?? ''} (${l.userId})`}</TruncatedText> };
const amount: Column<BankLine> = { header: 'Amount', cell: (l) => formatINR(l.amount) };

/** What each kind shows its checker: where a release sends the money, what a return credits back and why. */
const KINDS = {
  bank_batch_release: {
    query: releaseLinesQuery,
    caption: 'Transfers this release sends',
    columns: [
      member,
      { header: 'Beneficiary', cell: (l) => <TruncatedText maxWidth={160}>{l.beneficiaryName}</TruncatedText> },
      { header: 'Account', cell: (l) => `${l.accountNumber} · ${l.ifsc}` },
      amount,
    ] as Column<BankLine>[],
  },
  bank_returns: {
    query: returnLinesQuery,
    caption: 'Transfers the bank returned',
    columns: [
      member,
      { header: 'Reference', cell: (l) => l.reference },
      amount,
      { header: 'Bank\u2019s reason', cell: (l) => <TruncatedText maxWidth={200}>{l.returnReason ?? '—'}</TruncatedText> },
    ] as Column<BankLine>[],
  },
};

/** Money to or from members' banks: the lines the checker is asked to release or credit back, paged. */
export function BankRequestLines({ approvalId, kind }: { approvalId: number; kind: keyof typeof KINDS }) {
  const [page, setPage] = useState(1);
  const { query, caption, columns } = KINDS[kind];
  const lines = useQuery(query(approvalId, page));
  return (
    <QueryTable
      query={lines}
      page={page}
      onPage={setPage}
      limit={LINES_PAGE_SIZE}
      caption={caption}
      columns={columns}
      rowKey={(l) => l.id}
      empty="None of its transfers is listed any more."
    />
  );
}
