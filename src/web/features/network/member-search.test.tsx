import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import { MemberSearch } from './member-search';

const member = (userId: number, fullName: string) => ({
  _id: String(userId), userId, fullName, email: `m${userId}@test.local`, phone: `95000${userId}`, address: null, companyName: null,
  role: 'User', status: true, lastLogin: 'Never', referredBy: null, referrerName: null, rank: null, rankId: null, level: 1, dob: null,
  whatsapp: null, image: null, state: null, referralCode: `R${userId}`, createdAt: '2026-04-01T06:30:00.000Z',
});
const page = (users: unknown[]) => jsonResponse(200, { success: true, users, total: users.length, page: 1, limit: 8 });

afterEach(() => vi.unstubAllGlobals());

describe('MemberSearch', () => {
  it("Enter pressed while a new term's answer is on its way opens that answer's first member, not the previous term's", async () => {
    signIn();
    let answerId: (r: Response) => void = () => {};
    const idAnswer = new Promise<Response>((resolve) => { answerId = resolve; });
    const fetchMock = mockFetch((path) => {
      if (path.includes('search=quorra')) return page([member(100086, 'Quorra Findable'), member(100085, 'Quorra Searchable')]);
      if (path.includes('search=100085')) return idAnswer;
      return jsonResponse(404, { success: false, message: 'Not found' });
    });
    renderPage(<MemberSearch />);

    const search = screen.getByRole('combobox', { name: 'Search members' });
    fireEvent.focus(search);
    fireEvent.change(search, { target: { value: 'quorra' } });
    const listbox = await screen.findByRole('listbox', { name: 'Members found', hidden: true });
    await waitFor(() => expect(within(listbox).getAllByRole('option', { hidden: true })).toHaveLength(2));

    fireEvent.change(search, { target: { value: '100085' } });
    // The new term is asked for; the list still shows the 'quorra' members meanwhile.
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).includes('search=100085'))).toBe(true));
    expect(within(listbox).getAllByRole('option', { hidden: true })[0].textContent).toContain('Quorra Findable');
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter' });
    expect(screen.queryByTestId('location')).toBeNull();

    answerId(page([member(100085, 'Quorra Searchable')]));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/users/100085'));
  });

  it('Enter with nothing highlighted opens the first result of the answered term', async () => {
    signIn();
    mockFetch((path) => (path.includes('search=pooja') ? page([member(101, 'Pooja Nair'), member(102, 'Pooja Rao')]) : page([])));
    renderPage(<MemberSearch />);
    const search = screen.getByRole('combobox', { name: 'Search members' });
    fireEvent.focus(search);
    fireEvent.change(search, { target: { value: 'pooja' } });
    await screen.findByRole('option', { name: /Pooja Nair/, hidden: true });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/users/101'));
  });
});
