import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import AuditPage from './audit-page';

const ENTRY = {
  id: 7, actorId: 100001, actorName: 'Asha Admin', action: 'update', entity: 'rank', entityId: '100002',
  before: { name: 'Silver' }, after: { name: 'Silver Plus' }, ip: '10.0.0.5', createdAt: '2026-11-20T10:15:00.000Z',
};

describe('AuditPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists changes, sends the filters in the wire format, and shows before/after', async () => {
    signIn(['audit_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true, data: [ENTRY], total: 1, totalCapped: false, page: 1, limit: 25 }));
    renderPage(<AuditPage />);

    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(await within(table).findByText('Asha Admin')).toBeTruthy();
    expect(within(table).getByText('10.0.0.5')).toBeTruthy();
    expect(screen.getByText('1 change')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Actor'), { target: { value: 'asha@example.com' } });
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'update' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await vi.waitFor(() => {
      const urls = fetchMock.mock.calls.map(([u]) => String(u));
      expect(urls).toContain('/api/audit/logs?page=1&limit=25&actor=asha%40example.com&action=update&fromDate=01-11-2026&toDate=30-11-2026&sort=-createdAt');
    });

    fireEvent.click(await within(table).findByRole('button', { name: /Details of update rank 100002/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Change details' });
    expect(within(dialog).getByText(/"Silver Plus"/)).toBeTruthy();
    expect(within(dialog).getByText(/"Silver"/)).toBeTruthy();
  });

  it('issue 15: opens with the filters, order and page of the address, sorts by a header, and keeps it in the address', async () => {
    signIn(['audit_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true, data: [ENTRY], total: 60, totalCapped: false, page: 2, limit: 25 }));
    const { router } = renderPage(<AuditPage />, { url: '/?action=update&sort=action&page=2' });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    await within(table).findByText('Asha Admin');
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/audit/logs?page=2&limit=25&action=update&sort=action');
    expect((screen.getByLabelText('Action') as HTMLInputElement).value).toBe('update');
    expect(within(table).getByRole('columnheader', { name: /Action/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(within(table).getByRole('columnheader', { name: /When/ }).getAttribute('aria-sort')).toBe('none');

    // Newest first by time: page 1 again, the address says so.
    fireEvent.click(within(table).getByRole('button', { name: /When/ }));
    fireEvent.click(await within(table).findByRole('button', { name: /When/ }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?action=update'));
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/audit/logs?page=1&limit=25&action=update&sort=createdAt');
    await vi.waitFor(() =>
      expect(within(table).getByRole('columnheader', { name: /When/ }).getAttribute('aria-sort')).toBe('descending'));
    // The row action: an icon button with a tooltip, named by the row.
    expect(await within(table).findByRole('button', { name: 'View Details of update rank 100002' })).toBeTruthy();
  });

  it('shows the server message when loading fails', async () => {
    signIn(['audit_view']);
    mockFetch(() => jsonResponse(400, { success: false, message: 'fromDate must not be after toDate' }));
    renderPage(<AuditPage />);
    expect(await screen.findByText('fromDate must not be after toDate')).toBeTruthy();
  });
});
