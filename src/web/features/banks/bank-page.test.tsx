import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import BankPage from './bank-page';

const member = (userId: number, fullName: string) => ({
  _id: String(userId), userId, fullName, email: `${userId}@test.local`, phone: '9800000000', address: null, companyName: null,
  role: 'User', status: true, lastLogin: 'Never', referredBy: null, referrerName: null, rank: null, rankId: null, level: 1,
  dob: null, whatsapp: null, image: null, state: null, referralCode: `BO${userId}`, createdAt: '2026-01-01T00:00:00.000Z',
});
const USERS = { success: true, users: [member(1, 'Asha Rao'), member(2, 'Ravi Kumar')], total: 2, page: 1, limit: 25 };
const account = (bankId: number, isPrimary: boolean, branch: string | null) => ({
  _id: String(bankId), bankId, userId: 1, accountHolderName: 'Asha Rao', accountNumber: `12345678${bankId}`, ifsc: 'SBIN0001234',
  bank: 'State Bank of India', branch, isPrimary, createdAt: '2026-01-01T00:00:00.000Z',
});

describe('BankPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('lists members and shows their accounts, the primary one badged, N/A for a missing branch', async () => {
    signIn(['banks_view', 'users_view']);
    mockFetch((path) => {
      if (path === '/banks/getBanksByUserId/1') return jsonResponse(200, { success: true, data: [account(11, true, 'Pune'), account(12, false, null)] });
      if (path === '/banks/getBanksByUserId/2') return jsonResponse(404, { success: false, message: 'User ID not found' });
      return jsonResponse(200, USERS);
    });
    renderPage(<BankPage />);
    expect(screen.getByText('Bank Details')).toBeTruthy();
    await screen.findByText('Asha Rao');
    fireEvent.click(screen.getByRole('button', { name: 'View Bank Details of Asha Rao' }));
    const dialog = await screen.findByRole('dialog');
    const first = await within(dialog).findByRole('region', { name: 'Account #1' });
    expect(within(first).getByText('Primary Account')).toBeTruthy();
    expect(within(first).getByText('SBIN0001234')).toBeTruthy();
    const second = within(dialog).getByRole('region', { name: 'Account #2' });
    expect(within(second).queryByText('Primary Account')).toBeNull();
    expect(within(second).getByText('N/A')).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'View Bank Details of Ravi Kumar' }));
    expect(await screen.findByText('No bank details found for this user.')).toBeTruthy();
  });

  it('says when members or bank details fail to load', async () => {
    signIn(['banks_view', 'users_view']);
    mockFetch((path) => (path.startsWith('/banks/') ? jsonResponse(500, { success: false, message: 'x' }) : jsonResponse(200, USERS)));
    renderPage(<BankPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'View Bank Details of Asha Rao' }));
    expect(await screen.findByText('Failed to fetch bank details. Please try again later.')).toBeTruthy();
  });

  it('shows the users failure text', async () => {
    signIn(['banks_view', 'users_view']);
    mockFetch(() => jsonResponse(500, { success: false, message: 'x' }));
    renderPage(<BankPage />);
    expect(await screen.findByText('Failed to fetch users. Please try again later.')).toBeTruthy();
  });

  it('without a stored token asks for one and saves it as authToken', async () => {
    localStorage.clear();
    mockFetch(() => jsonResponse(200, USERS));
    renderPage(<BankPage />);
    expect(screen.getByText('Authentication required. Please log in.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Set Auth Token' }));
    fireEvent.change(screen.getByLabelText('Auth token'), { target: { value: 'typed-token-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Token' }));
    expect(localStorage.getItem('authToken')).toBe('typed-token-123');
    expect(await screen.findByText('Asha Rao')).toBeTruthy();
  });
});
