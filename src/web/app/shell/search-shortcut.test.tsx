import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderRoutes, signIn } from '../../test-utils';
import { layoutLoadingEnded } from './layout-loading';
import { AppLayout } from './app-layout';

function ListPage() {
  return (
    <div>
      <h1>A list</h1>
      <input aria-label="Notes" />
      <input aria-label="Search permissions" placeholder="Search permissions..." />
    </div>
  );
}
function LabelledList() {
  return (
    <label>
      Search
      <input placeholder="Name, email or user id" />
    </label>
  );
}
const routes = [{
  element: <AppLayout />,
  children: [{ path: '/', element: <h1>Dashboard</h1> }, { path: '/list', element: <ListPage /> }, { path: '/staff', element: <LabelledList /> }],
}];

async function shell(url: string) {
  signIn(['dashboard_view']);
  mockFetch(() => jsonResponse(200, { success: true, data: {} }));
  renderRoutes(routes, url);
  await screen.findByRole('banner', {}, { timeout: 5_000 });
}

describe('issue 24: / and Ctrl+K focus the search', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    layoutLoadingEnded();
  });

  it('focuses the list\u2019s own search box on a list that has one, with / and with Ctrl+K', async () => {
    await shell('/list');
    const search = screen.getByLabelText('Search permissions');
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(search);
    search.blur();
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(search);
  });

  it('finds a list search by its label too', async () => {
    await shell('/staff');
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(screen.getByPlaceholderText('Name, email or user id'));
  });

  it('focuses the header\u2019s member search elsewhere; the hint shows the keys', async () => {
    await shell('/');
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Search members' }));
    const hint = screen.getByTestId('search-shortcut-hint');
    expect(hint.textContent).toBe('/Ctrl K');
  });

  it('leaves a / typed in a field alone', async () => {
    await shell('/list');
    const notes = screen.getByLabelText('Notes');
    notes.focus();
    const event = fireEvent.keyDown(notes, { key: '/' });
    expect(event).toBe(true); // not prevented: the character is typed
    expect(document.activeElement).toBe(notes);
  });
});
