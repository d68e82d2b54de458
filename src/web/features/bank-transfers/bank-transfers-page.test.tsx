import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import BankTransfersPage from './bank-transfers-page';

const batch = (id: number, status: string, approvalStatus: string | null) => ({
  id, status, template: 'hdfc', lines: 2, total: 300, settledLines: 0, settled: 0, returnedLines: 0, returned: 0, openLines: 2,
  createdBy: 1, createdByName: 'System Administrator', releasedBy: null, releasedByName: null, approvalId: approvalStatus ? id + 40 : null,
  approvalStatus, createdAt: '2026-11-27T10:00:00.000Z', releasedAt: null, cancelledAt: null,
});
const GATHERABLE = { success: true, data: { count: 0, total: 0, notGatherableCount: 0, notGatherableTotal: 0, notGatherable: [] } };
const NO_LINES = { success: true, data: [], total: 0, page: 1, limit: 25 };

describe('BankTransfersPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('a batch whose release was rejected says so, not "Awaiting release", and offers Release and Cancel batch; one still awaiting is marked so', async () => {
    signIn(['bank_transfers']);
    const batches = [batch(7, 'pending_release', 'rejected'), batch(8, 'pending_release', 'pending')];
    mockFetch((path) => {
      if (path.startsWith('/bank-transfers/gatherable')) return jsonResponse(200, GATHERABLE);
      if (path.startsWith('/bank-transfers/batches/7/lines') || path.startsWith('/bank-transfers/batches/8/lines')) return jsonResponse(200, NO_LINES);
      if (path.startsWith('/bank-transfers/batches/7')) return jsonResponse(200, { success: true, data: batches[0] });
      if (path.startsWith('/bank-transfers/batches/8')) return jsonResponse(200, { success: true, data: batches[1] });
      if (path.startsWith('/bank-transfers/batches')) return jsonResponse(200, { success: true, data: batches, total: 2, page: 1, limit: 20 });
      return jsonResponse(200, NO_LINES);
    });
    renderPage(<BankTransfersPage />);
    const rejected = (await screen.findByText('Release rejected')).closest('tr')!;
    expect(within(rejected).getByRole('button', { name: /batch 7\b/i })).toBeTruthy();
    const waiting = screen.getByText('Awaiting release').closest('tr')!;
    expect(within(waiting).getByRole('button', { name: /batch 8\b/i })).toBeTruthy();

    fireEvent.click(within(rejected).getByRole('button', { name: /batch 7\b/i }));
    expect(await screen.findByRole('button', { name: 'Cancel batch' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Release' })).toBeTruthy();
  });
});
