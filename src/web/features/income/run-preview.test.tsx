import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import RunsPage from './runs-page';

Element.prototype.scrollIntoView = () => {};

describe('New Run preview', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('issue 24 item 9: a preview that pays nothing says why, not only "0"', async () => {
    signIn(['payouts_view', 'income_runs']);
    const nothing = { total: 0, done: 0, paid: 0, failed: 0, gross: 0, deductions: 0, tds: 0, adminCharge: 0, net: 0, failedAmount: 0 };
    const why = 'Nothing to pay: of 3 active membership(s), 2 start later, 1 reached their cap';
    mockFetch((path) => (path === '/income/runs/preview'
      ? jsonResponse(200, { success: true, data: { kind: 'daily_payout', periodStart: '15-11-2026', periodEnd: '15-11-2026', totals: nothing, existingRunId: null, nothingBecause: why } })
      : jsonResponse(200, { success: true, data: [], total: 0, page: 1, limit: 25 })));
    renderPage(<RunsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'New Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Run' });
    fireEvent.change(within(dialog).getByLabelText(/^Date/), { target: { value: '2026-11-15' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    const preview = await within(dialog).findByRole('region', { name: 'Preview' });
    expect(within(preview).getByText(why)).toBeTruthy();
  });
});
