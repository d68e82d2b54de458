import { screen } from '@testing-library/react';
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
