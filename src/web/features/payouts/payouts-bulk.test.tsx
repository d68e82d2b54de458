import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import PayoutsPage from './payouts-page';

Element.prototype.scrollIntoView = () => {};

const failedRow = (id: number, userName: string) =>
  ({ id, userId: 100000 + id, userName, amount: 9.25, gross: 10, tds: 0.5, adminCharge: 0.25, date: '2026-11-03', status: 'Failure', paidAt: null, reason: 'No primary bank account' });
const reversedRow = {
  id: 50, userId: 100050, userName: 'Pooja Rao', amount: 9.25, gross: 10, tds: 0.5, adminCharge: 0.25, date: '2026-11-03', status: 'Reversed',
  paidAt: null, reversedByName: 'Ravi Operator', reversedAt: '2026-11-04T10:00:00Z', reversalReason: 'Wrong plan', reversedStatus: 'Success',
};
const pageOf = (rows: unknown[], total = rows.length) => ({
  success: true, data: rows, total, page: 1, limit: 25,
  totals: { count: total, amount: 100, successful: 0, failed: total, reversed: 0 }, daily: [],
});

describe('PayoutsPage, issue 24', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('applies the status filter as soon as it is picked, without Search', async () => {
    signIn(['payouts_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, pageOf([])));
    renderPage(<PayoutsPage />);
    await screen.findByText('No payouts found');
    fireEvent.click(screen.getAllByLabelText('Status')[0]);
    fireEvent.click((await screen.findAllByRole('option', { name: 'Failure', hidden: true })).at(-1)!);
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).includes('status=Failure'))).toBe(true));
    expect(screen.queryByRole('button', { name: 'Search' })).toBeTruthy(); // never pressed
  });

  it('shows gross, TDS and admin charge, and a reversed payout with who reversed it and why', async () => {
    signIn(['payouts_view']);
    mockFetch(() => jsonResponse(200, pageOf([reversedRow])));
    renderPage(<PayoutsPage />);
    const table = await screen.findByRole('table', { name: 'Daily payouts' });
    const row = (await within(table).findByText('Pooja Rao')).closest('tr')!;
    for (const header of ['Gross', 'TDS', 'Admin Charge', 'Amount']) expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    expect(within(row).getByText('Reversed')).toBeTruthy();
    expect(within(row).getByText(/^Reversed by Ravi Operator on .*: Wrong plan \(was paid\)$/)).toBeTruthy();
    expect(within(row).getByText('10.00')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /^Pay Now/ })).toBeNull();
    expect(screen.getByText('Amount is the net paid to the member: gross minus TDS and admin charge.')).toBeTruthy();
  });

  it('pays the selected failed payouts in bulk with one Idempotency-Key per chunk and ends with a summary', async () => {
    signIn(['payouts_view', 'payouts_pay']);
    const bulkCalls: { body: { ids: number[]; bulkId: string }; key: string | null }[] = [];
    mockFetch((path, init) => {
      if (path === '/payouts/payNow/bulk') {
        const body = JSON.parse(String(init.body)) as { ids: number[]; bulkId: string };
        bulkCalls.push({ body, key: new Headers(init.headers).get('Idempotency-Key') });
        return jsonResponse(200, {
          success: true, message: '1 paid',
          data: { done: [{ id: 1, note: 'Paid' }, { id: 2, note: 'Already paid' }], failed: [{ id: 3, message: 'Reversed with its run: it cannot be paid' }], approvalId: null },
        });
      }
      return jsonResponse(200, pageOf([failedRow(1, 'Asha'), failedRow(2, 'Bina'), failedRow(3, 'Chitra')], 40));
    });
    renderPage(<PayoutsPage />);
    await screen.findByText('Asha');
    fireEvent.click(screen.getByRole('checkbox', { name: /^Select payout of Asha/ }));
    const bar = screen.getByRole('region', { name: 'Bulk actions on failed payouts' });
    expect(within(bar).getByText('1 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: /^Select payout of Bina/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /^Select payout of Chitra/ }));
    expect(within(bar).getByText('3 selected')).toBeTruthy();
    expect(within(bar).getByRole('button', { name: /Select all 40 matching failed payouts/ })).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Pay Now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay Now for 3 payouts' });
    await within(dialog).findByText(/2 succeeded, 1 did not/);
    expect(within(dialog).getByText(/Chitra .*: Reversed with its run: it cannot be paid/)).toBeTruthy();
    expect(within(dialog).getByText(/Already paid: 1/)).toBeTruthy();
    expect(bulkCalls).toHaveLength(1);
    expect(bulkCalls[0].body.ids).toEqual([1, 2, 3]);
    expect(bulkCalls[0].key).toMatch(/.{8,}/);
    expect(bulkCalls[0].body.bulkId).toMatch(/^[A-Za-z0-9-]{8,64}$/);
  });
});
