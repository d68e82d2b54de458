import { useState } from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../test-utils';
import { BulkBar, BulkRunModal, useBulkRun, type ChunkResult } from './bulk';
import { DataTable } from './data-table';
import { useSelection } from './use-selection';

interface Row {
  id: number;
  name: string;
}
const everyRow: Row[] = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, name: `Member ${i + 1}` }));

/** A list of 7 rows paged 3 at a time, with one bulk action whose server is `runChunk`. */
function Harness({ runChunk }: { runChunk: (ids: number[], key: string) => Promise<ChunkResult<number>> }) {
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('a');
  const rows = everyRow.slice((page - 1) * 3, page * 3);
  const selection = useSelection({ pageIds: rows.map((r) => r.id), total: everyRow.length, resetKey: filter });
  const run = useBulkRun<number>();
  const chosen = () => Promise.resolve(selection.mode === 'all' ? everyRow.map((r) => r.id) : [...selection.ids]);
  return (
    <>
      <button type="button" onClick={() => setFilter('b')}>
        Change filter
      </button>
      <BulkBar
        selection={selection}
        total={everyRow.length}
        noun="members"
        actions={[
          {
            label: 'Deactivate',
            onClick: () =>
              void run.start({ title: 'Deactivate members', items: chosen, chunkSize: 2, runChunk, describe: (id) => `Member ${id}` }),
          },
        ]}
      />
      <DataTable
        caption="Members"
        columns={[{ header: 'Name', cell: (row: Row) => row.name }]}
        rows={rows}
        rowKey={(row) => row.id}
        empty="None"
        paging={{ page, limit: 3, total: everyRow.length, onPage: setPage }}
        select={{ selection, rowId: (row) => row.id, rowLabel: (row) => `Select ${row.name}`, selectable: (row) => row.id !== 2 }}
      />
      <BulkRunModal run={run} />
    </>
  );
}

describe('bulk selection and runs', () => {
  it('selects rows across pages, the whole page, or every matching row, and a non-selectable row has no checkbox', () => {
    renderPage(<Harness runChunk={() => Promise.resolve({ done: [], failed: [] })} />);
    expect(screen.queryByRole('region', { name: 'Bulk actions on members' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Select Member 2' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Member 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Member 4' }));
    expect(screen.getByText('2 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every row on this page of Members' }));
    expect(screen.getByText('4 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Select all 7 matching members' }));
    expect(screen.getByText('All 7 matching members selected')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Select Member 6' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('region', { name: 'Bulk actions on members' })).toBeNull();
  });

  it('a change of the filter clears the selection', () => {
    renderPage(<Harness runChunk={() => Promise.resolve({ done: [], failed: [] })} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Member 1' }));
    expect(screen.getByText('1 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Change filter' }));
    expect(screen.queryByText('1 selected')).toBeNull();
  });

  it('runs chunk after chunk with a stable key each, shows progress, and ends with what succeeded and what did not', async () => {
    const calls: { ids: number[]; key: string }[] = [];
    const runChunk = (ids: number[], key: string) => {
      calls.push({ ids, key });
      return Promise.resolve({
        done: ids.filter((id) => id !== 5).map((id) => ({ id, note: id === 1 ? 'Already inactive' : 'Deactivated' })),
        failed: ids.filter((id) => id === 5).map((id) => ({ id, message: 'Member not found' })),
      });
    };
    renderPage(<Harness runChunk={runChunk} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every row on this page of Members' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select all 7 matching members' }));
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate members' });
    await waitFor(() => expect(within(dialog).getByText('6 succeeded, 1 did not')).toBeTruthy());
    expect(within(dialog).getByText('Finished: 7 of 7 processed')).toBeTruthy();
    expect(within(dialog).getByText('Member 5: Member not found')).toBeTruthy();
    expect(within(dialog).getByText('Deactivated: 5')).toBeTruthy();
    expect(within(dialog).getByText('Already inactive: 1')).toBeTruthy();
    expect(calls.map((c) => c.ids)).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    expect(new Set(calls.map((c) => c.key)).size).toBe(4);
  });

  it('stops on a failed request and retries the rest with the same key for the failed chunk', async () => {
    const keys: string[] = [];
    let failOnce = true;
    const runChunk = (ids: number[], key: string) => {
      keys.push(key);
      if (ids[0] === 3 && failOnce) {
        failOnce = false;
        return Promise.reject(new TypeError('Failed to fetch'));
      }
      return Promise.resolve({ done: ids.map((id) => ({ id })), failed: [] });
    };
    renderPage(<Harness runChunk={runChunk} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every row on this page of Members' }));
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every row on this page of Members' }));
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate members' });
    await waitFor(() => expect(within(dialog).getByText('The request failed')).toBeTruthy());
    expect(within(dialog).getByText(/2 succeeded, 0 did not, 4 not processed/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retry the rest' }));
    await waitFor(() => expect(within(dialog).getByText('6 succeeded, 0 did not')).toBeTruthy());
    expect(keys[2]).toBe(keys[1]);
  });
});
