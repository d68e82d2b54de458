import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Approval } from '../../../contract/approvals';
import { jsonResponse, mockFetch, renderPage, signIn, TEST_USER } from '../../test-utils';
import ApprovalsPage from './approvals-page';

const base: Approval = {
  id: 7, kind: 'wallet_recharge', userId: 501, userName: 'Ravi Kumar', amount: 25000, status: 'pending',
  makerId: 900, makerName: 'Meera Maker', checkerId: null, checkerName: null, remarks: null,
  payoutId: null, withdrawalId: null, details: null, createdAt: '2026-03-02T10:00:00.000Z', decidedAt: null,
};
const own: Approval = { ...base, id: 8, kind: 'pay_payout', amount: 12345.5, makerId: TEST_USER.userId, makerName: TEST_USER.fullName };
const page = (data: Approval[]) => ({ success: true, data, total: data.length, page: 1, limit: 25 });

/** The signed-in checker is TEST_USER: the session check answers with it, the rest goes to `handler`. */
function serve(handler: Parameters<typeof mockFetch>[0]) {
  const user = signIn(['money_approve']);
  return mockFetch((path, init) => (path === '/users/me' ? jsonResponse(200, { success: true, data: user }) : handler(path, init)));
}

describe('ApprovalsPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists pending requests with member, kind in words, ₹ amount and maker; the maker\u2019s own request cannot be approved', async () => {
    const fetchMock = serve(() => jsonResponse(200, page([base, own])));
    renderPage(<ApprovalsPage />);
    expect(screen.getByRole('heading', { name: 'Approvals' })).toBeTruthy();
    expect(screen.getByText('Loading approvals...')).toBeTruthy();
    const row = (await screen.findByText('#7')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Ravi Kumar')).toBeTruthy();
    expect(within(row).getByText('Wallet recharge')).toBeTruthy();
    expect(within(row).getByText('₹25,000.00')).toBeTruthy();
    expect(within(row).getByText('Meera Maker')).toBeTruthy();
    expect(within(row).getByText('Not decided yet')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/approvals?status=pending&page=1&limit=25&sort=-createdAt');

    const mine = screen.getByText('#8').closest('tr') as HTMLElement;
    expect(within(mine).getByText('Daily payout payment (Pay Now)')).toBeTruthy();
    expect(within(mine).getByText('₹12,345.50')).toBeTruthy();
    const blocked = within(mine).getByRole('button', { name: 'Approve request 8' });
    expect(blocked.getAttribute('aria-disabled')).toBe('true');
    expect(blocked.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(mine).getByText('You asked for this movement: another operator must approve it')).toBeTruthy();
    fireEvent.click(blocked);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('approves after confirming, shows the answer and refreshes the list', async () => {
    let decided = false;
    const fetchMock = serve((path, init) => {
      if (init.method === 'POST') {
        decided = true;
        return jsonResponse(200, { success: true, message: 'Request approved: Wallet recharged successfully', data: { ...base, status: 'approved', result: null } });
      }
      return jsonResponse(200, page(decided ? [] : [base]));
    });
    renderPage(<ApprovalsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve request 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Request' });
    expect(within(dialog).getByText('Wallet recharge of ₹25,000.00 for Ravi Kumar (ID: 501), requested by Meera Maker.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Request approved: Wallet recharged successfully')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(url).toBe('/api/approvals/7/approve');
    expect(new Headers(init!.headers).get('Idempotency-Key')).toBeTruthy();
    expect(await screen.findByText('No pending requests')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('issue 22: a bank account change shows the whole old and new number and IFSC before it is approved', async () => {
    const change: Approval = {
      ...base, id: 9, kind: 'bank_account_change', amount: 0,
      details: {
        bankId: 31, changes: { accountNumber: '999988887777', ifsc: 'ICIC0000001' },
        before: { accountHolderName: 'Ravi Kumar', accountNumber: '501002003004', ifsc: 'HDFC0001234', bank: 'HDFC Bank' },
      },
    };
    serve(() => jsonResponse(200, page([change])));
    renderPage(<ApprovalsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve request 9' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Request' });
    expect(within(dialog).getByText('Bank account change for Ravi Kumar (ID: 501), requested by Meera Maker.')).toBeTruthy();
    const table = within(dialog).getByRole('table', { name: 'Bank account change' });
    const row = (label: string) => within(table).getByText(label).closest('tr') as HTMLElement;
    expect(within(row('Account Number')).getByText('501002003004')).toBeTruthy();
    expect(within(row('Account Number')).getByText('999988887777')).toBeTruthy();
    expect(within(row('IFSC Code')).getByText('HDFC0001234')).toBeTruthy();
    expect(within(row('IFSC Code')).getByText('ICIC0000001')).toBeTruthy();
    expect(within(row('Account Holder')).getAllByText('Ravi Kumar')).toHaveLength(2);
  });

  it('returns from the bank: the checker sees the amount in rupees and every transfer the bank returned, with its reason, before the money moves', async () => {
    const returns: Approval = {
      ...base, id: 12, kind: 'bank_returns', userId: null, userName: null, amount: 1200.5, details: { lines: 2, total: '₹1,200.50' },
    };
    const line = (id: number, userId: number, userName: string, amount: number, returnReason: string) => ({
      id, batchId: 3, userId, userName, ledgerEntryId: id + 100, source: 'withdrawal', amount, beneficiaryName: userName, accountNumber: 'XXXXXX1234',
      ifsc: 'SBIN0001234', reference: `BT3-${id}`, status: 'in_transit', utr: null, returnReason, inTransitSince: '2026-11-27T10:00:00.000Z',
      settledAt: null, returnedAt: null, returnApprovalId: 12, returnApprovalStatus: 'pending',
    });
    const fetchMock = serve((path) => (path.startsWith('/bank-transfers/returns/12/lines')
      ? jsonResponse(200, { success: true, data: [line(41, 601, 'Asha Rao', 1000, 'Account closed'), line(42, 602, 'Bala Kumar', 200.5, 'Invalid IFSC')], total: 2, page: 1, limit: 25 })
      : jsonResponse(200, page([returns]))));
    renderPage(<ApprovalsPage />);
    // The Member column says how many transfers a file's returns move (many members at once).
    expect(within((await screen.findByText('#12')).closest('tr') as HTMLElement).getByText('2 bank transfers')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Approve request 12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Request' });
    expect(within(dialog).getByText('Returns from the bank of ₹1,200.50, requested by Meera Maker.')).toBeTruthy();
    expect(within(dialog).getByText('The money moves as soon as you approve.')).toBeTruthy();
    const table = await within(dialog).findByRole('table', { name: 'Transfers the bank returned' });
    const row = within(table).getByText('BT3-42').closest('tr') as HTMLElement;
    expect(within(row).getByText('Bala Kumar (602)')).toBeTruthy();
    expect(within(row).getByText('₹200.50')).toBeTruthy();
    expect(within(row).getByText('Invalid IFSC')).toBeTruthy();
    expect(within(table).getByText('Account closed')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/bank-transfers/returns/12/lines?page=1&limit=25');
  });

  it('a batch release: the checker sees where each transfer goes, the account masked, before releasing it', async () => {
    const release: Approval = {
      ...base, id: 13, kind: 'bank_batch_release', userId: null, userName: null, amount: 3500, payoutId: null,
      details: { batchId: 4, lines: 1, total: '₹3,500.00' },
    };
    serve((path) => (path.startsWith('/bank-transfers/releases/13/lines')
      ? jsonResponse(200, { success: true, total: 1, page: 1, limit: 25, data: [{
        id: 51, batchId: 4, userId: 603, userName: 'Chitra Nair', ledgerEntryId: 151, source: 'withdrawal', amount: 3500, beneficiaryName: 'Chitra N',
        accountNumber: 'XXXXXXXX9012', ifsc: 'UTIB0000003', reference: 'BT4-51', status: 'queued', utr: null, returnReason: null, inTransitSince: null,
        settledAt: null, returnedAt: null, returnApprovalId: null, returnApprovalStatus: null,
      }] })
      : jsonResponse(200, page([release]))));
    renderPage(<ApprovalsPage />);
    expect(within((await screen.findByText('#13')).closest('tr') as HTMLElement).getByText('1 bank transfer')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Approve request 13' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Request' });
    expect(within(dialog).getByText('Release of a bank transfer batch of ₹3,500.00, requested by Meera Maker.')).toBeTruthy();
    const table = await within(dialog).findByRole('table', { name: 'Transfers this release sends' });
    const row = within(table).getByText('Chitra N').closest('tr') as HTMLElement;
    expect(within(row).getByText('XXXXXXXX9012 · UTIB0000003')).toBeTruthy();
    expect(within(row).getByText('₹3,500.00')).toBeTruthy();
  });

  it('rejects only with a reason; a refusal stays in the dialog, and a retry after it sends a fresh key', async () => {
    let attempts = 0;
    const fetchMock = serve((path, init) => {
      if (init.method === 'POST') {
        attempts += 1;
        return attempts === 1
          ? jsonResponse(409, { success: false, message: 'Approval request 7 has already been approved' })
          : jsonResponse(200, { success: true, message: 'Request rejected: no money moved', data: { ...base, status: 'rejected', result: null } });
      }
      return jsonResponse(200, page([base]));
    });
    renderPage(<ApprovalsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reject request 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Request' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Please give the reason for rejecting this request')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Reason for rejecting/), { target: { value: 'Member asked to cancel' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Approval request 7 has already been approved')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Request rejected: no money moved')).toBeTruthy();
    const posts = fetchMock.mock.calls.filter(([, i]) => i?.method === 'POST');
    expect(posts.map(([u]) => u)).toEqual(['/api/approvals/7/reject', '/api/approvals/7/reject']);
    expect(JSON.parse(String(posts[0][1]!.body))).toEqual({ remarks: 'Member asked to cancel' });
    const key = (i: number) => new Headers(posts[i][1]!.headers).get('Idempotency-Key');
    expect(key(1)).not.toBe(key(0));
  });

  it('filters by status through the URL, shows decided requests with checker and outcome, the empty and the error states', async () => {
    const rejected: Approval = {
      ...base, id: 9, status: 'rejected', checkerId: 901, checkerName: 'Chitra Checker', remarks: 'Duplicate request',
      decidedAt: '2026-03-02T11:00:00.000Z',
    };
    serve((path) => {
      if (path.includes('status=rejected')) return jsonResponse(200, page([rejected]));
      if (path.includes('status=approved')) return jsonResponse(500, { success: false, message: 'Database unavailable' });
      return jsonResponse(200, page([]));
    });
    renderPage(<ApprovalsPage />);
    expect(await screen.findByText('No pending requests')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Rejected' }));
    const row = (await screen.findByText('Chitra Checker')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Duplicate request')).toBeTruthy();
    expect(within(row).getByText('Rejected')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Approve request/ })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Approved' }));
    expect(await screen.findByText('Failed to load approvals: Database unavailable')).toBeTruthy();
  });

  it('issue 15: status, order and page come from the address; a header sorts on the server and goes back to page 1', async () => {
    const rejected: Approval = { ...base, id: 9, status: 'rejected', checkerId: 901, checkerName: 'Chitra Checker', decidedAt: '2026-03-02T11:00:00.000Z' };
    const fetchMock = serve(() => jsonResponse(200, { ...page([rejected]), total: 60, page: 2 }));
    const { router } = renderPage(<ApprovalsPage />, { url: '/?status=rejected&sort=-amount&page=2' });
    const table = await screen.findByRole('table', { name: 'Rejected approval requests' });
    await within(table).findByText('Chitra Checker');
    const urls = () => fetchMock.mock.calls.map(([u]) => String(u));
    expect(urls()).toContain('/api/approvals?status=rejected&page=2&limit=25&sort=-amount');
    expect(within(table).getByRole('columnheader', { name: /Amount/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(within(table).getByRole('button', { name: /Amount/ }));
    await waitFor(() => expect(urls()).toContain('/api/approvals?status=rejected&page=1&limit=25&sort=amount'));
    await waitFor(() => expect(router.state.location.search).toBe('?status=rejected&sort=amount'));
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: /Amount/ }).getAttribute('aria-sort')).toBe('ascending'));
  });
});

describe('ApprovalsPage: a compensation change (issue 22)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the checker every field before and after, the changed ones in bold, and the projected cost with its lines', async () => {
    const change: Approval = {
      ...base, id: 9, kind: 'plan_change', userId: null, userName: null, amount: 6800,
      details: {
        fields: ['name', 'price', 'cap'],
        before: { name: 'Gold', price: '₹5,000.00', cap: '₹10,000.00' },
        after: { name: 'Gold', price: '₹5,000.00', cap: '₹15,000.00' },
        projectedCost: '₹6,800.00',
        projection: [{ label: 'Level income on one sale (every level filled)', amount: '₹1,200.00' }],
        basis: 'Each membership sold pays ₹6,800.00 in its first 30 days',
      },
    };
    serve(() => jsonResponse(200, page([change])));
    renderPage(<ApprovalsPage />);
    const row = (await screen.findByText('#9')).closest('tr') as HTMLElement;
    expect(within(row).getByText('No member')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Approve request 9' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Request' });
    expect(within(dialog).getByText('Membership plan change (projected cost ₹6,800.00), requested by Meera Maker.')).toBeTruthy();
    const table = within(dialog).getByRole('table', { name: 'What changes' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows).toEqual(['NameGoldGold', 'Price₹5,000.00₹5,000.00', 'Cap₹10,000.00₹15,000.00']);
    expect(within(dialog).getByText('Projected cost over the first 30 days: ₹6,800.00')).toBeTruthy();
    expect(within(dialog).getByText('Level income on one sale (every level filled): ₹1,200.00')).toBeTruthy();
    expect(within(dialog).getByText('It takes effect as soon as you approve.')).toBeTruthy();
  });

  describe('my requests (issue 24)', () => {
    const decided: Approval = {
      ...base, id: 11, makerId: TEST_USER.userId, makerName: TEST_USER.fullName, status: 'rejected',
      checkerId: 77, checkerName: 'Chitra Checker', remarks: 'Wrong member', decidedAt: '2026-03-03T10:00:00.000Z',
    };

    it('an operator without money_approve sees the requests they filed, not "No access"', async () => {
      const user = signIn(['wallet_manage']);
      const fetchMock = mockFetch((path) => (path === '/users/me' ? jsonResponse(200, { success: true, data: user }) : jsonResponse(200, page([decided]))));
      renderPage(<ApprovalsPage />);
      expect(screen.getByRole('heading', { name: 'My requests' })).toBeTruthy();
      const row = (await screen.findByText('#11')).closest('tr') as HTMLElement;
      expect(within(row).getByText('Rejected')).toBeTruthy();
      expect(within(row).getByText('Chitra Checker')).toBeTruthy();
      expect(within(row).getByText('Wrong member')).toBeTruthy();
      const urls = fetchMock.mock.calls.map(([url]) => String(url));
      expect(urls).toContain('/api/approvals/mine?page=1&limit=25');
      expect(urls.some((u) => u.startsWith('/api/approvals?'))).toBe(false);
      expect(screen.queryByRole('tab')).toBeNull();
      expect(screen.queryByText('No access')).toBeNull();
      fireEvent.click(screen.getByRole('radio', { name: 'Pending' }));
      await waitFor(() => expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/approvals/mine?status=pending&page=1&limit=25'));
    });

    it('is a tab beside the queue for an approver', async () => {
      const fetchMock = serve((path) => jsonResponse(200, page(path.startsWith('/approvals/mine') ? [decided] : [base])));
      renderPage(<ApprovalsPage />);
      await screen.findByText('#7');
      fireEvent.click(screen.getByRole('tab', { name: 'My requests' }));
      expect(await screen.findByText('#11')).toBeTruthy();
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/approvals/mine?page=1&limit=25');
    });
  });

  describe('bulk decisions (issue 24)', () => {
    const other: Approval = { ...base, id: 9, userName: 'Sita Devi', userId: 502 };

    it('approves the selected requests in one bulk call with an idempotency key, then shows what succeeded and what did not', async () => {
      const fetchMock = serve((path, init) => {
        if (path === '/approvals/bulk') {
          return jsonResponse(200, {
            success: true, message: '1 request approved, 1 not',
            data: { done: [{ id: 7 }], failed: [{ id: 8, message: 'You asked for this movement yourself: another operator with money_approve must approve it' }] },
          });
        }
        return init.method === 'POST' ? jsonResponse(500, {}) : jsonResponse(200, page([base, own, other]));
      });
      renderPage(<ApprovalsPage />);
      await screen.findByText('#7');
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select request 7' }));
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select request 8' }));
      expect(screen.getByText('2 selected')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Approve selected' }));
      const dialog = await screen.findByRole('dialog', { name: 'Approve 2 requests' });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Approve 2 requests' }));
      expect(await screen.findByText('1 succeeded, 1 did not')).toBeTruthy();
      expect(screen.getByText(/Request #8: You asked for this movement yourself/)).toBeTruthy();
      const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === '/api/approvals/bulk')!;
      expect(JSON.parse(String(init!.body))).toEqual({ action: 'approve', ids: [7, 8] });
      expect((init!.headers as Record<string, string>)['Idempotency-Key']).toBeTruthy();
    });

    it('"select all matching" reads every pending id from the server when the run starts', async () => {
      const ids = Array.from({ length: 30 }, (_, i) => i + 100);
      const fetchMock = serve((path) => {
        if (path.startsWith('/approvals/ids')) return jsonResponse(200, { success: true, data: ids, total: 30, capped: false });
        if (path === '/approvals/bulk') return jsonResponse(200, { success: true, message: '30 requests approved, 0 not', data: { done: ids.map((id) => ({ id })), failed: [] } });
        return jsonResponse(200, { ...page([base, other]), total: 30 });
      });
      renderPage(<ApprovalsPage />);
      await screen.findByText('#7');
      fireEvent.click(screen.getByRole('checkbox', { name: /Select every row on this page/ }));
      fireEvent.click(screen.getByRole('button', { name: 'Select all 30 matching requests' }));
      fireEvent.click(screen.getByRole('button', { name: 'Approve selected' }));
      const dialog = await screen.findByRole('dialog', { name: 'Approve 30 requests' });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Approve 30 requests' }));
      expect(await screen.findByText('30 succeeded, 0 did not')).toBeTruthy();
      const urls = fetchMock.mock.calls.map(([url]) => String(url));
      expect(urls).toContain('/api/approvals/ids?status=pending');
      const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === '/api/approvals/bulk')!;
      expect(JSON.parse(String(init!.body))).toEqual({ action: 'approve', ids });
    });

    it('a bulk rejection asks for the reason before anything is sent', async () => {
      const fetchMock = serve((path) =>
        path === '/approvals/bulk'
          ? jsonResponse(200, { success: true, message: '2 requests rejected, 0 not', data: { done: [{ id: 7 }, { id: 9 }], failed: [] } })
          : jsonResponse(200, page([base, other])));
      renderPage(<ApprovalsPage />);
      await screen.findByText('#7');
      fireEvent.click(screen.getByRole('checkbox', { name: /Select every row on this page/ }));
      fireEvent.click(screen.getByRole('button', { name: 'Reject selected' }));
      const dialog = await screen.findByRole('dialog', { name: 'Reject 2 requests' });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Reject 2 requests' }));
      expect(within(dialog).getByText('Please give the reason for rejecting these requests')).toBeTruthy();
      expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/approvals/bulk')).toBe(false);
      fireEvent.change(within(dialog).getByLabelText(/Reason for rejecting/), { target: { value: 'Duplicate entries' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Reject 2 requests' }));
      expect(await screen.findByText('2 succeeded, 0 did not')).toBeTruthy();
      const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === '/api/approvals/bulk')!;
      expect(JSON.parse(String(init!.body))).toEqual({ action: 'reject', ids: [7, 9], remarks: 'Duplicate entries' });
    });
  });
});
