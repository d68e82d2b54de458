import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import RanksPage from './ranks-page';

// Issue 24: Download CSV on the Ranks list.
describe('RanksPage: export', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('downloads the ranks as CSV from the server', async () => {
    signIn(['ranks_view']);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
    const fetchMock = mockFetch((path) =>
      path.includes('.csv') ? new Response('ID\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }) : jsonResponse(200, { success: true, data: [] }),
    );
    renderPage(<RanksPage />);
    const button = await screen.findByRole('button', { name: 'Download CSV' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    await waitFor(() => expect(fetchMock.mock.calls.map((c) => String(c[0]))).toContain('/api/ranks/ranks.csv'));
  });
});
