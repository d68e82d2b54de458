import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, signIn } from '../../test-utils';
import UsersPage from './users-page';
import { page, serve, user } from './users-test-kit';

// Issue 24: activate/deactivate members in bulk from /users.
describe('UsersPage: bulk activate and deactivate', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('picks rows, deactivates them with a key per request, shows progress and a summary naming what failed', async () => {
    signIn(['users_view', 'users_edit']);
    const sent: { body: unknown; key: string | null }[] = [];
    serve(() => page([user(1), user(2), user(3)], 3), (path, init) => {
      if (path === '/users/bulk-status' && init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { ids: number[] };
        sent.push({ body, key: new Headers(init.headers).get('Idempotency-Key') });
        return jsonResponse(200, {
          success: true, message: 'done',
          done: [{ id: 1 }, { id: 3, note: 'Already inactive' }],
          failed: [{ id: 2, message: 'This account signs in to the back-office, so it is managed on the Staff screen, not here' }],
        });
      }
      return undefined;
    });
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    expect(screen.queryByRole('region', { name: 'Bulk actions on users' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Member 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Member 2' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Member 3' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions on users' });
    expect(within(bar).getByText('3 selected')).toBeTruthy();
    // Asked first: Cancel sends nothing; confirming starts the run.
    fireEvent.click(within(bar).getByRole('button', { name: 'Deactivate' }));
    let confirm = await screen.findByRole('dialog', { name: 'Deactivate members' });
    expect(within(confirm).getByText('Deactivate 3 members? Each change is audited; activate them again to undo it.')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deactivate members' })).toBeNull());
    expect(sent).toHaveLength(0);
    fireEvent.click(within(bar).getByRole('button', { name: 'Deactivate' }));
    confirm = await screen.findByRole('dialog', { name: 'Deactivate members' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate 3 members' });
    expect(await within(dialog).findByText('2 succeeded, 1 did not')).toBeTruthy();
    expect(within(dialog).getByText('Already inactive: 1')).toBeTruthy();
    expect(within(dialog).getByText('Member 2 (2): This account signs in to the back-office, so it is managed on the Staff screen, not here')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toEqual({ ids: [1, 2, 3], status: false });
    expect(sent[0].key).toMatch(/.{8,}/);
    // The selection is cleared when the run ends.
    expect(screen.queryByRole('region', { name: 'Bulk actions on users' })).toBeNull();
  });

  it('"select all matching" reads the ids the filter matches from the server, then activates them in chunks', async () => {
    signIn(['users_view', 'users_edit']);
    const chunks: number[][] = [];
    const all = Array.from({ length: 150 }, (_, i) => i + 1);
    serve(() => page([user(1), user(2)], 150), (path, init) => {
      if (path.startsWith('/users/ids')) return jsonResponse(200, { success: true, ids: all, total: all.length });
      if (path === '/users/bulk-status' && init.method === 'POST') {
        const { ids } = JSON.parse(String(init.body)) as { ids: number[] };
        chunks.push(ids);
        return jsonResponse(200, { success: true, message: 'done', done: ids.map((id) => ({ id })), failed: [] });
      }
      return undefined;
    });
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Member 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select all 150 matching users' }));
    fireEvent.click(within(screen.getByRole('region', { name: 'Bulk actions on users' })).getByRole('button', { name: 'Activate' }));
    const confirm = await screen.findByRole('dialog', { name: 'Activate members' });
    expect(within(confirm).getByText('Activate 150 members?')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Activate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate 150 members' });
    expect(await within(dialog).findByText('150 succeeded, 0 did not')).toBeTruthy();
    expect(chunks.map((c) => c.length)).toEqual([100, 50]);
    expect(chunks.flat()).toEqual(all);
  });

  it('offers no checkboxes without users_edit', async () => {
    signIn(['users_view']);
    serve(() => page([user(1)]));
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    expect(screen.queryByRole('checkbox', { name: 'Select Member 1' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
  });
});
