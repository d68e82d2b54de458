import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import WalletPage from './wallet-page';

Element.prototype.scrollIntoView = () => {};

const rows = [
  { id: 2, userId: 100002, userName: 'asha', fullName: 'Asha Rao', amount: 50.25, dateTime: '2026-11-05T10:00:00Z', transactionType: 'wallet_withdrawal' },
  { id: 1, userId: 100002, userName: 'asha', fullName: 'Asha Rao', amount: 250.75, dateTime: '2026-11-04T10:00:00Z', transactionType: 'wallet_recharge' },
];
const list = (data: unknown[]) => ({ success: true, data, total: data.length, page: 1, limit: 25 });
const members = { success: true, data: [{ userId: 100002, userName: 'asha', fullName: 'Asha Rao', balance: 200.5 }], total: 1, page: 1, limit: 20 };

describe('WalletPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists transactions with signed amounts and type badges', async () => {
    signIn(['wallet_view']);
    mockFetch(() => jsonResponse(200, list(rows)));
    renderPage(<WalletPage />);
    expect(screen.getByRole('heading', { name: 'User Wallet' })).toBeTruthy();
    expect(await screen.findByText('-50.25')).toBeTruthy();
    expect(screen.getByText('+250.75')).toBeTruthy();
    expect(screen.getByText('Recharge')).toBeTruthy();
    expect(screen.getByText('Withdrawal')).toBeTruthy();
    for (const header of ['User', 'Amount', 'Type', 'Date & Time']) expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
  });

  it('shows "No transactions yet" when there are none', async () => {
    signIn(['wallet_view']);
    mockFetch(() => jsonResponse(200, list([])));
    renderPage(<WalletPage />);
    expect(await screen.findByText('No transactions yet')).toBeTruthy();
  });

  async function openForm() {
    fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
    return screen.findByRole('dialog', { name: 'Add New Transaction' });
  }

  it('validates the form, then posts the transaction with an idempotency key and confirms', async () => {
    signIn(['wallet_view', 'wallet_manage']);
    const posts: RequestInit[] = [];
    mockFetch((path, init) => {
      if (path.startsWith('/wallet/balances')) return jsonResponse(200, members);
      if (path === '/wallets/userWalletRecharge') {
        posts.push(init);
        return jsonResponse(200, { success: true, message: 'Wallet withdrawal completed successfully', data: {} });
      }
      return jsonResponse(200, list(rows));
    });
    renderPage(<WalletPage />);
    const dialog = await openForm();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Transaction' }));
    expect(await within(dialog).findByText('Please select a user and enter a valid amount')).toBeTruthy();

    fireEvent.click(within(dialog).getAllByLabelText('User')[0]);
    fireEvent.click((await screen.findAllByRole('option', { name: /Asha Rao/, hidden: true })).at(-1)!);
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '20' } });
    fireEvent.click(within(dialog).getAllByLabelText('Transaction Type')[0]);
    fireEvent.click((await screen.findAllByRole('option', { name: 'Wallet Withdrawal', hidden: true })).at(-1)!);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Transaction' }));
    expect(await screen.findByText('Wallet withdrawal completed successfully')).toBeTruthy();
    expect(JSON.parse(String(posts[0].body))).toEqual({ userId: 100002, amount: 20, transactionType: 'wallet_withdrawal' });
    expect(new Headers(posts[0].headers).get('Idempotency-Key')).toBeTruthy();
  });

  it('shows the server message, or "Failed to create transaction" without one', async () => {
    signIn(['wallet_view', 'wallet_manage']);
    let withMessage = true;
    mockFetch((path) => {
      if (path.startsWith('/wallet/balances')) return jsonResponse(200, members);
      if (path === '/wallets/userWalletRecharge') {
        return withMessage
          ? jsonResponse(400, { success: false, message: 'Insufficient wallet balance: the member has 200.50 and 500.00 was requested' })
          : new Response('', { status: 502 });
      }
      return jsonResponse(200, list(rows));
    });
    renderPage(<WalletPage />);
    const dialog = await openForm();
    fireEvent.click(within(dialog).getAllByLabelText('User')[0]);
    fireEvent.click((await screen.findAllByRole('option', { name: /Asha Rao/, hidden: true })).at(-1)!);
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '500' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Transaction' }));
    expect(await within(dialog).findByText('Insufficient wallet balance: the member has 200.50 and 500.00 was requested')).toBeTruthy();
    withMessage = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Transaction' }));
    expect(await within(dialog).findByText('Failed to create transaction')).toBeTruthy();
  });
});
