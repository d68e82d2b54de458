import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

  it('an imported file whose rejections wait for approval says so; the held line reads "Return awaits approval" in transit', async () => {
    signIn(['bank_transfers']);
    const summary = {
      answers: 2, settled: 1, returned: 0, held: 1, heldAmount: 200.5, returnsApprovalId: 77, duplicates: 0, unknown: 0, pending: 0, conflicts: 0,
      notReleased: 0, invalid: 0, memberDeleted: 0, settledAmount: 100, returnedAmount: 0, problems: [], problemsCapped: false,
    };
    const held = {
      id: 42, batchId: 3, userId: 602, userName: 'Bala Kumar', ledgerEntryId: 142, source: 'withdrawal', amount: 200.5, beneficiaryName: 'Bala Kumar',
      accountNumber: 'XXXXXX1234', ifsc: 'SBIN0001234', reference: 'BT3-42', status: 'in_transit', utr: null, returnReason: 'Account closed',
      inTransitSince: '2026-11-27T10:00:00.000Z', settledAt: null, returnedAt: null, returnApprovalId: 77, returnApprovalStatus: 'pending', ageDays: 1,
    };
    mockFetch((path, init) => {
      if (path.startsWith('/bank-transfers/gatherable')) return jsonResponse(200, GATHERABLE);
      if (path.startsWith('/bank-transfers/responses') && init.method === 'POST') {
        return jsonResponse(200, { success: true, message: 'Settled 1, returned 0, returns awaiting approval 1 (request 77), duplicates 0, unknown 0', data: summary });
      }
      if (path.startsWith('/bank-transfers/in-transit')) return jsonResponse(200, { success: true, data: [held], total: 1, page: 1, limit: 25 });
      return jsonResponse(200, NO_LINES);
    });
    const { container } = renderPage(<BankTransfersPage />);
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['Reference,Status,UTR,Reason\n'], 'response.csv', { type: 'text/csv' })] } });
    expect(await screen.findByText('Returns await approval')).toBeTruthy();
    expect(screen.getByText(/The bank returned 1 transfer \(₹200\.50\): the money goes back to the members’ wallets once a second operator approves request 77/)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'In transit' }));
    await waitFor(() => expect(screen.getByText('Return awaits approval (request 77)')).toBeTruthy());
  });
});
