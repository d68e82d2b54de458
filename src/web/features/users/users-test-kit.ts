import { screen } from '@testing-library/react';
import type { User } from '../../../contract/users';
import { jsonResponse, mockFetch } from '../../test-utils';

/** Shared by the users page tests: members, ranks and a fake server answering the list. */

// jsdom has no layout: Mantine's combobox scrolls the selected option into view.
Element.prototype.scrollIntoView = () => {};

export const user = (userId: number, over: Partial<User> = {}): User => ({
  _id: String(userId), userId, fullName: `Member ${userId}`, email: `m${userId}@test.local`, phone: `98000${userId}`,
  address: null, companyName: null, role: 'User', status: true, lastLogin: 'Never', referredBy: null, referrerName: null,
  rank: null, rankId: null, level: 1, dob: '1990-01-01', whatsapp: null, image: null, state: null,
  referralCode: `BO${userId}`, createdAt: '2026-01-01T00:00:00.000Z', ...over,
});

export const RANKS = {
  success: true,
  data: [
    { _id: '100002', rankId: 100002, name: 'Silver', status: true, createdAt: '' },
    { _id: '100005', rankId: 100005, name: 'Diamond', status: false, createdAt: '' },
    { _id: '100001', rankId: 100001, name: 'Bronze', status: true, createdAt: '' },
  ],
};

export const selectInput = (label: string) => screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT')!;

export const page = (users: User[], total = users.length) => ({ success: true, users, total, page: 1, limit: 25 });

export function serve(list: (url: URL) => unknown, extra: (path: string, init: RequestInit) => Response | undefined = () => undefined) {
  return mockFetch((path, init) => {
    const more = extra(path, init);
    if (more) return more;
    if (path.startsWith('/ranks/getAllRank')) return jsonResponse(200, RANKS);
    if (path.startsWith('/users/getAllusers')) return jsonResponse(200, list(new URL(path, 'http://x')));
    return jsonResponse(404, { success: false, message: 'Not found' });
  });
}
