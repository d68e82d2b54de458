import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import RanksPage from './ranks-page';

const RANKS = [
  { _id: '100001', rankId: 100001, name: 'Bronze', status: true, createdAt: '2026-01-01T00:00:00.000Z' },
  { _id: '100005', rankId: 100005, name: 'Diamond', status: false, createdAt: '2026-01-01T00:00:00.000Z' },
];

describe('RanksPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists ranks with S.No, Name and Status, and searches by name', async () => {
    signIn(['ranks_view']);
    mockFetch(() => jsonResponse(200, { success: true, data: RANKS }));
    renderPage(<RanksPage />);
    expect(screen.getByText('Ranks Management')).toBeTruthy();
    await screen.findByText('Bronze');
    expect(screen.getByText('Inactive')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Search ranks...'), { target: { value: 'zzz' } });
    expect(screen.getByText('No ranks found')).toBeTruthy();
  });

  it('requires a name, creates a rank and shows the success banner', async () => {
    signIn(['ranks_view', 'ranks_manage']);
    let body: unknown = null;
    mockFetch((path, init) => {
      if (path === '/ranks/createRank') {
        body = JSON.parse(String(init.body));
        return jsonResponse(201, { success: true, message: 'Rank created successfully', data: { ...RANKS[0], _id: '7', rankId: 7, name: 'Titanium' } });
      }
      return jsonResponse(200, { success: true, data: RANKS });
    });
    renderPage(<RanksPage />);
    await screen.findByText('Bronze');
    fireEvent.click(screen.getByRole('button', { name: 'Add Rank' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Rank' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Rank name is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Rank Name/), { target: { value: 'Titanium' } });
    fireEvent.click(within(dialog).getByLabelText('Active'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Rank created successfully')).toBeTruthy();
    expect(body).toEqual({ name: 'Titanium', status: false });
  });

  it('shows Position, Weight, Criteria and Monthly reward; with income_settings the form sends the criteria as typed', async () => {
    signIn(['ranks_view', 'ranks_manage', 'income_settings']);
    const gold = { ...RANKS[0], name: 'Gold', position: 3, royaltyWeight: 4, minDirect: 10, minTeam: 100, minBusiness: 100000, monthlyReward: 500 };
    let body: unknown = null;
    mockFetch((path, init) => {
      if (path.startsWith('/ranks/updateRank')) {
        body = JSON.parse(String(init.body));
        return jsonResponse(200, { success: true, message: 'Rank updated successfully', data: gold });
      }
      return jsonResponse(200, { success: true, data: [gold, RANKS[1]] });
    });
    renderPage(<RanksPage />);
    await screen.findByText('Gold');
    expect(screen.getByText('10 direct · 100 team · ₹1,00,000.00 business')).toBeTruthy();
    expect(screen.getByText('By hand only')).toBeTruthy();
    expect(screen.getByText('₹500.00')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Gold' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Rank' });
    fireEvent.change(within(dialog).getByLabelText(/Min. team business/), { target: { value: '1,000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByText('Minimum team business must be a number')).toBeTruthy();
    expect((within(dialog).getByLabelText(/Min. team business/) as HTMLInputElement).value).toBe('1,000');
    fireEvent.change(within(dialog).getByLabelText(/Min. team business/), { target: { value: '2500.50' } });
    fireEvent.change(within(dialog).getByLabelText(/Royalty weight/), { target: { value: '6' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Rank updated successfully')).toBeTruthy();
    expect(body).toEqual({ name: 'Gold', status: true, position: 3, royaltyWeight: 6, minDirect: 10, minTeam: 100, minBusiness: 2500.5, monthlyReward: 500 });
  });

  it('without income_settings the criteria are read-only in the form and left out of the update', async () => {
    signIn(['ranks_view', 'ranks_manage']);
    let body: unknown = null;
    mockFetch((path, init) => {
      if (path.startsWith('/ranks/updateRank')) {
        body = JSON.parse(String(init.body));
        return jsonResponse(200, { success: true, message: 'Rank updated successfully', data: RANKS[0] });
      }
      return jsonResponse(200, { success: true, data: RANKS });
    });
    renderPage(<RanksPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Bronze' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Rank' });
    expect((within(dialog).getByLabelText(/Position/) as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).getByText('Setting the ladder and criteria needs the income_settings permission.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Rank updated successfully')).toBeTruthy();
    expect(body).toEqual({ name: 'Bronze', status: true });
  });

  it('shows "Failed to save rank: {message}" from the server', async () => {
    signIn(['ranks_view', 'ranks_manage']);
    mockFetch((path) =>
      path.startsWith('/ranks/updateRank')
        ? jsonResponse(409, { success: false, message: 'A rank named "Diamond" already exists' })
        : jsonResponse(200, { success: true, data: RANKS }),
    );
    renderPage(<RanksPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Bronze' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Rank' });
    fireEvent.change(within(dialog).getByLabelText(/Rank Name/), { target: { value: 'Diamond' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByText('Failed to save rank: A rank named "Diamond" already exists')).toBeTruthy();
  });

  it('falls back to badged, read-only sample ranks when loading fails', async () => {
    signIn(['ranks_view', 'ranks_manage']);
    mockFetch(() => jsonResponse(500, { success: false, message: 'Database down' }));
    renderPage(<RanksPage />);
    expect(await screen.findByText('Failed to load ranks: Database down')).toBeTruthy();
    expect(screen.getByText('Sample data')).toBeTruthy();
    for (const name of ['Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond']) expect(screen.getByText(name)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add Rank' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Edit Gold' }).hasAttribute('disabled')).toBe(true);
  });

  it('accepts the ranks as a bare array, a rank id given as id (spec §7, §3)', async () => {
    signIn(['ranks_view', 'ranks_manage']);
    const fetchMock = mockFetch((path) =>
      path.startsWith('/ranks/updateRank')
        ? jsonResponse(200, { success: true, message: 'Rank updated successfully', data: {} })
        : jsonResponse(200, [{ id: 7, name: 'Gold', status: true }, { _id: 'x9', rankId: 9, name: 'Iron', status: false }]),
    );
    renderPage(<RanksPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Gold' }));
    expect(screen.getByText('Iron')).toBeTruthy();
    const dialog = await screen.findByRole('dialog', { name: 'Edit Rank' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Rank updated successfully')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url, init]) => init?.method === 'PUT' && url === '/api/ranks/updateRank/7')).toBe(true);
  });

  it('sorts by name and by status from the headers; the order comes from the address', async () => {
    signIn(['ranks_view']);
    const more = [...RANKS, { _id: '100003', rankId: 100003, name: 'Gold', status: true, createdAt: '2026-01-01T00:00:00.000Z' }];
    mockFetch(() => jsonResponse(200, { success: true, data: more }));
    renderPage(<RanksPage />, { url: '/?sort=-name' });
    await screen.findByText('Gold');
    const names = () => screen.getAllByRole('row').slice(1).map((r) => r.querySelectorAll('td')[1].textContent);
    expect(names()).toEqual(['Gold', 'Diamond', 'Bronze']);
    const name = screen.getByRole('columnheader', { name: 'Name' });
    expect(name.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(within(name).getByRole('button'));
    expect(names()).toEqual(['Bronze', 'Diamond', 'Gold']);
    expect(name.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'Status' })).getByRole('button'));
    expect(names()).toEqual(['Bronze', 'Gold', 'Diamond']);
  });
});
