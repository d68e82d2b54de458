import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadCsvFrom, signIn } from '../../test-utils';
import { MyRequests } from './my-requests';

// Issue 24: Download CSV on My requests, of the status chosen.
describe('MyRequests: export', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the status chosen with the export', async () => {
    signIn(['wallet_manage']);
    const urls = await downloadCsvFrom(<MyRequests status="rejected" page={1} onStatus={() => {}} onPage={() => {}} />, { data: [], total: 0, page: 1, limit: 25 });
    expect(urls).toEqual(['/api/approvals/mine.csv?status=rejected']);
  });
});
