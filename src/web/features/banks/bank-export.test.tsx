import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import BankPage from './bank-page';

// Issue 24: Download CSV on the Bank list.
describe('BankPage: export', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('downloads every member’s bank accounts as CSV from the server', async () => {
    signIn(['banks_view']);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
    const fetchMock = mockFetch((path) =>
      path.includes('.csv') ? new Response('ID\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }) : jsonResponse(200, { success: true, users: [], total: 0, page: 1, limit: 25 }),
    );
    renderPage(<BankPage />);
    const button = await screen.findByRole('button', { name: 'Download CSV' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    await waitFor(() => expect(fetchMock.mock.calls.map((c) => String(c[0]))).toContain('/api/banks/bankAccounts.csv'));
  });
});
