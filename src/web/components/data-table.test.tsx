import { useState } from 'react';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../test-utils';
import { DataTable } from './data-table';

const rows = Array.from({ length: 25 }, (_, i) => ({ id: i + 1 }));
const table = (total: number) => (
  <DataTable
    caption="Numbers"
    columns={[{ header: 'ID', cell: (row: { id: number }) => row.id }]}
    rows={rows}
    rowKey={(row) => row.id}
    empty="None"
    paging={{ page: 1, limit: 25, total, onPage: () => {} }}
  />
);

describe('DataTable paging', () => {
  it('offers only the pages the server serves (the first 10,000 rows) and says how to reach the rest', () => {
    renderPage(table(1_000_000));
    expect(screen.getByRole('button', { name: 'Page 400' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Page 401' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Page 40000' })).toBeNull();
    expect(screen.getByText(/only the first 10,000 can be paged through: narrow the filters or export to CSV/)).toBeTruthy();
  });

  it('offers every page of a list within the first 10,000 rows, without the hint', () => {
    renderPage(table(304));
    expect(screen.getByRole('button', { name: 'Page 13' })).toBeTruthy();
    expect(screen.queryByText(/can be paged through/)).toBeNull();
  });
});

describe('DataTable sorting and loading', () => {
  const columns = [
    { header: 'ID', cell: (row: { id: number }) => row.id, sort: 'id' },
    { header: 'Note', cell: () => 'x' },
  ];

  it('sorts by a header: ascending first, then descending, and says which to screen readers', () => {
    const chosen: string[] = [];
    function Sorted() {
      const [value, setValue] = useState('-other');
      const onChange = (v: string) => {
        chosen.push(v);
        setValue(v);
      };
      return <DataTable caption="Numbers" columns={columns} rows={rows} rowKey={(r) => r.id} empty="None" sort={{ value, onChange }} />;
    }
    renderPage(<Sorted />);
    const order = () => screen.getByRole('columnheader', { name: 'ID' }).getAttribute('aria-sort');
    expect(order()).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'Note' }).getAttribute('aria-sort')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'ID' }));
    expect(order()).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: 'ID' }));
    expect(order()).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: 'ID' }));
    expect(chosen).toEqual(['id', '-id', 'id']);
  });

  it('shows placeholder rows, never the previous rows, while another page loads', () => {
    renderPage(<DataTable caption="Numbers" columns={columns} rows={rows} rowKey={(r) => r.id} empty="None" loading />);
    expect(screen.queryByText('1')).toBeNull();
    expect(screen.getByRole('table', { name: 'Numbers' }).getAttribute('aria-busy')).toBe('true');
    expect(screen.getAllByRole('row')).toHaveLength(1 + 10);
  });
});
