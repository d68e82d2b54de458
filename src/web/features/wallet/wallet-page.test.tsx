import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import {
  expectCorrectedUnderNewKey, expectRefusedAsTyped, fakeMoneyEndpoint, movedAnswer, refusingWhen, typeAmount, type FakeMoneyEndpoint,
} from './fake-money-endpoint';
import WalletPage from './wallet-page';

Element.prototype.scrollIntoView = () => {};

const rows = [
  { id: 2, userId: 100002, userName: 'asha', fullName: 'Asha Rao', amount: 50.25, dateTime: '2026-11-05T10:00:00Z', transactionType: 'wallet_withdrawal' },
  { id: 1, userId: 100002, userName: 'asha', fullName: 'Asha Rao', amount: 250.75, dateTime: '2026-11-04T10:00:00Z', transactionType: 'wallet_recharge' },
];
const list = (data: unknown[]) => ({ success: true, data, total: data.length, page: 1, limit: 25 });
const members = { success: true, data: [{ userId: 100002, userName: 'asha', fullName: 'Asha Rao', balance: 200.5 }], total: 1, page: 1, limit: 20 };

// Each test opens a modal and picks from selects; on a busy 2-core machine that alone nears the 5 s default.
describe('WalletPage', { timeout: 20_000 }, () => {
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
        return jsonResponse(...movedAnswer('Wallet withdrawal completed successfully'));
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

  async function pickMember(dialog: HTMLElement) {
    fireEvent.click(within(dialog).getAllByLabelText('User')[0]);
    fireEvent.click((await screen.findAllByRole('option', { name: /Asha Rao/, hidden: true })).at(-1)!);
  }

  /** Signs in an operator who may move money, opens Add New Transaction for Asha Rao, sent to `endpoint`. */
  async function openFormFor(endpoint: FakeMoneyEndpoint) {
    signIn(['wallet_view', 'wallet_manage']);
    const fetchMock = mockFetch((path, init) => {
      if (path.startsWith('/wallet/balances')) return jsonResponse(200, members);
      if (path === '/wallets/userWalletRecharge') return endpoint.handle(init);
      return jsonResponse(200, list(rows));
    });
    renderPage(<WalletPage />);
    const dialog = await openForm();
    await pickMember(dialog);
    return { dialog, fetchMock };
  }

  const recharged = () => movedAnswer('Wallet recharged successfully');

  // Issue 13 finding 9: a number field turned -5, 0 and 0.001 into 0.01 on blur (a real ₹0.01
  // recharge followed), 10.999 into 10.99 and 1e5 into 15.
  it.each(['-5', '0', '0.001', '10.999', '1e5', 'abc', '+5', '1,000', '.5', '0.00'])(
    'keeps %j exactly as typed, refuses it and sends nothing',
    async (typed) => {
      const endpoint = fakeMoneyEndpoint(recharged);
      const { dialog } = await openFormFor(endpoint);
      await expectRefusedAsTyped(endpoint, dialog, typed, { submit: 'Save Transaction', message: 'Please select a user and enter a valid amount' });
    },
  );

  it.each([
    ['10.5', 10.5],
    ['10.10', 10.1],
    ['0.29', 0.29],
    [' 5 ', 5],
    ['007', 7],
  ])('sends %j as the number %s, leaving the field as typed', async (typed, sent) => {
    const endpoint = fakeMoneyEndpoint(recharged);
    const { dialog } = await openFormFor(endpoint);
    expect(typeAmount(dialog, typed)).toHaveProperty('value', typed);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Transaction' }));
    expect(await screen.findByText('Wallet recharged successfully')).toBeTruthy();
    expect(endpoint.requests.map((r) => r.body)).toEqual([{ userId: 100002, amount: sent, transactionType: 'wallet_recharge' }]);
  });

  // Issue 13 finding 9: after "withdrawal above the balance" the corrected form reused the first
  // key and got "This Idempotency-Key was already used for a different request…" until reopened.
  /** A withdrawal of 500 the endpoint refuses while the balance (read per request) is below it. */
  async function withdrawAboveBalance(balance: () => number) {
    const endpoint = fakeMoneyEndpoint(refusingWhen((body) => Number(body.amount) > balance(),
      'Insufficient wallet balance: the member has 200.50 and 500.00 was requested', 'Wallet withdrawal completed successfully'));
    const { dialog } = await openFormFor(endpoint);
    fireEvent.click(within(dialog).getAllByLabelText('Transaction Type')[0]);
    fireEvent.click((await screen.findAllByRole('option', { name: 'Wallet Withdrawal', hidden: true })).at(-1)!);
    typeAmount(dialog, '500');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Transaction' }));
    return { endpoint, dialog };
  }

  it('sends a corrected withdrawal after a refusal under a new key, and it goes through', async () => {
    const { endpoint, dialog } = await withdrawAboveBalance(() => 200.5);
    expect(await within(dialog).findByText('Insufficient wallet balance: the member has 200.50 and 500.00 was requested')).toBeTruthy();
    typeAmount(dialog, '200');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Transaction' }));
    expect(await screen.findByText('Wallet withdrawal completed successfully')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Add New Transaction' })).toBeNull();
    expectCorrectedUnderNewKey(endpoint, { userId: 100002, amount: 200, transactionType: 'wallet_withdrawal' });
  });

  it('sends the same request again after a refusal under a new key, so a fixed cause is not answered by the stored refusal', async () => {
    let balance = 200.5;
    const { endpoint, dialog } = await withdrawAboveBalance(() => balance);
    expect(await within(dialog).findByText(/Insufficient wallet balance/)).toBeTruthy();
    balance = 1000;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Transaction' }));
    expect(await screen.findByText('Wallet withdrawal completed successfully')).toBeTruthy();
    expect(endpoint.requests).toHaveLength(2);
    expect(endpoint.requests[1].key).not.toBe(endpoint.requests[0].key);
  });

  it('retries the identical request under the same key after a network failure or a server error, so it is applied once', async () => {
    signIn(['wallet_view', 'wallet_manage']);
    let failures = ['network', 'server'];
    const endpoint = fakeMoneyEndpoint(recharged);
    mockFetch((path, init) => {
      if (path.startsWith('/wallet/balances')) return jsonResponse(200, members);
      if (path === '/wallets/userWalletRecharge') {
        const failure = failures[0];
        failures = failures.slice(1);
        if (failure === 'network') {
          endpoint.handle(init); // the server applied it; the answer was lost on the way back
          throw new TypeError('Failed to fetch');
        }
        if (failure === 'server') return jsonResponse(502, { success: false, message: 'Bad gateway' });
        return endpoint.handle(init);
      }
      return jsonResponse(200, list(rows));
    });
    renderPage(<WalletPage />);
    const dialog = await openForm();
    await pickMember(dialog);
    typeAmount(dialog, '20');
    const save = within(dialog).getByRole('button', { name: 'Save Transaction' });
    fireEvent.click(save);
    expect(await within(dialog).findByText('Failed to create transaction')).toBeTruthy();
    fireEvent.click(save);
    expect(await within(dialog).findByText('Bad gateway')).toBeTruthy();
    fireEvent.click(save);
    expect(await screen.findByText('Wallet recharged successfully')).toBeTruthy();
    // The third attempt was answered from the first one's stored answer: one recharge in all.
    expect(endpoint.requests).toHaveLength(2);
    expect(new Set(endpoint.requests.map((r) => r.key)).size).toBe(1);
  });

  it('shows a credit above the approval threshold as awaiting approval, not as done, and reloads the list', async () => {
    const message = 'Your credit of 50000.00 awaits approval by a second operator';
    const endpoint = fakeMoneyEndpoint(() => [202, { success: true, message, data: { approvalId: 12, status: 'pending' } }]);
    const { dialog, fetchMock } = await openFormFor(endpoint);
    typeAmount(dialog, '50000');
    const listLoads = () => fetchMock.mock.calls.filter(([u]) => String(u).includes('/users/walletHistory')).length;
    await vi.waitFor(() => expect(listLoads()).toBe(1));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Transaction' }));
    const notice = await screen.findByRole('status', { name: 'Awaiting approval' });
    expect(notice.textContent).toContain(message);
    expect(screen.queryByText('Wallet recharged successfully')).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Add New Transaction' })).toBeNull();
    await vi.waitFor(() => expect(listLoads()).toBe(2));
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(message)).toBeNull();
  });

  // Issue 15 item 1: the filters and the order are the server's, kept in the address.
  describe('filters and order', () => {
    const listQueries = (fetchMock: ReturnType<typeof mockFetch>) =>
      fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.includes('/users/walletHistory?')).map((u) => new URL(u, 'http://x').searchParams);

    it('sends type, dates, amounts as typed and the order to the server; a bad amount stays as typed, marked, and sends nothing', async () => {
      signIn(['wallet_view']);
      const fetchMock = mockFetch(() => jsonResponse(200, list(rows)));
      renderPage(<WalletPage />);
      await screen.findByText('-50.25');
      const form = screen.getByRole('form', { name: 'Filter wallet transactions' });
      fireEvent.click(within(form).getAllByLabelText('Type')[0]);
      fireEvent.click((await screen.findAllByRole('option', { name: 'Wallet Withdrawal', hidden: true })).at(-1)!);
      await vi.waitFor(() => expect(listQueries(fetchMock).at(-1)?.get('type')).toBe('wallet_withdrawal'));
      fireEvent.change(within(form).getByLabelText('From'), { target: { value: '2026-11-01' } });
      fireEvent.change(within(form).getByLabelText('To'), { target: { value: '2026-11-30' } });
      const min = within(form).getByLabelText('Min Amount');
      fireEvent.change(min, { target: { value: '1e5' } });
      const before = listQueries(fetchMock).length;
      fireEvent.click(within(form).getByRole('button', { name: 'Search' }));
      expect(await within(form).findByText('Enter an amount in rupees, e.g. 100 or 99.50')).toBeTruthy();
      expect(min).toHaveProperty('value', '1e5');
      expect(listQueries(fetchMock)).toHaveLength(before);

      fireEvent.change(min, { target: { value: '100.50' } });
      fireEvent.change(within(form).getByLabelText('Max Amount'), { target: { value: '2000' } });
      fireEvent.click(within(form).getByRole('button', { name: 'Search' }));
      await vi.waitFor(() => expect(listQueries(fetchMock).at(-1)?.get('minAmount')).toBe('100.50'));
      expect(min).toHaveProperty('value', '100.50');
      expect(Object.fromEntries(listQueries(fetchMock).at(-1)!)).toMatchObject({
        type: 'wallet_withdrawal', fromDate: '01-11-2026', toDate: '30-11-2026', minAmount: '100.50', maxAmount: '2000', sort: '-createdAt', page: '1',
      });

      fireEvent.click(screen.getByRole('button', { name: /Amount/ }));
      await vi.waitFor(() => expect(listQueries(fetchMock).at(-1)?.get('sort')).toBe('amount'));
      fireEvent.click(screen.getByRole('button', { name: /Amount/ }));
      await vi.waitFor(() => expect(listQueries(fetchMock).at(-1)?.get('sort')).toBe('-amount'));
      expect(screen.getByRole('columnheader', { name: /Amount/ }).getAttribute('aria-sort')).toBe('descending');
    });

    it('offers every kind the ledger has, in words, and shows another kind with its own direction (issue 24)', async () => {
      signIn(['wallet_view']);
      const fetchMock = mockFetch((path) => (path.includes('type=daily_payout')
        ? jsonResponse(200, list([
          { ...rows[0], id: 9, amount: 90, transactionType: 'daily_payout', type: 'debit' },
          { ...rows[1], id: 8, amount: 100, transactionType: 'daily_payout', type: 'credit' },
        ]))
        : jsonResponse(200, list(rows))));
      renderPage(<WalletPage />);
      await screen.findByText('-50.25');
      const form = screen.getByRole('form', { name: 'Filter wallet transactions' });
      expect(within(form).getAllByLabelText('Type')[0]).toHaveProperty('value', 'Recharges and withdrawals');
      fireEvent.click(within(form).getAllByLabelText('Type')[0]);
      const options = await screen.findAllByRole('option', { hidden: true });
      expect(options.map((o) => o.textContent)).toEqual(expect.arrayContaining([
        'Recharges and withdrawals', 'Wallet Recharge', 'Wallet Withdrawal', 'Membership Fee', 'Paid Outside the Wallet', 'Level Income',
        'Daily Payout', 'TDS', 'Admin Charge', 'Royalty', 'Reward', 'Referral Bonus', 'Admin Transfer', 'Recovery',
      ]));
      fireEvent.click(options.find((o) => o.textContent === 'Daily Payout')!);
      await vi.waitFor(() => expect(listQueries(fetchMock).at(-1)?.get('type')).toBe('daily_payout'));
      // A reversal's daily payout is a debit: its sign is the server's, not the kind's.
      expect(await screen.findByText('-90.00')).toBeTruthy();
      expect(screen.getByText('+100.00')).toBeTruthy();
      expect(screen.getAllByText('Daily Payout', { selector: '.mantine-Badge-label' })).toHaveLength(2);
    });

    it('opens a shared link with its filters, order and page in the controls and the query', async () => {
      signIn(['wallet_view']);
      const fetchMock = mockFetch(() => jsonResponse(200, { ...list(rows), total: 60, page: 2 }));
      renderPage(<WalletPage />, { url: '/?user=100002&type=wallet_recharge&from=2026-11-01&to=2026-11-30&min=5&max=99.5&sort=amount&page=2' });
      await screen.findByText('-50.25');
      expect(Object.fromEntries(listQueries(fetchMock)[0])).toMatchObject({
        userId: '100002', type: 'wallet_recharge', fromDate: '01-11-2026', toDate: '30-11-2026', minAmount: '5', maxAmount: '99.5', sort: 'amount', page: '2',
      });
      const form = screen.getByRole('form', { name: 'Filter wallet transactions' });
      expect(within(form).getByLabelText('From')).toHaveProperty('value', '2026-11-01');
      expect(within(form).getByLabelText('Max Amount')).toHaveProperty('value', '99.5');
      expect(within(form).getAllByLabelText('Type')[0]).toHaveProperty('value', 'Wallet Recharge');
      expect(within(form).getAllByLabelText('User')[0]).toHaveProperty('value', 'ID: 100002');
      expect(screen.getByRole('columnheader', { name: /Amount/ }).getAttribute('aria-sort')).toBe('ascending');
    });
  });

  // Issue 15 items 3 and 4: long names are cut with the full text on hover/focus; while another
  // page loads the table shows placeholder rows, never the previous page's rows under new numbers.
  it('cuts a long member name and shows placeholder rows, not page 1, while page 2 loads', async () => {
    signIn(['wallet_view']);
    const long = 'Ananthapadmanabhan Venkataraghavan Subramaniam Iyer Krishnamurthy Raghunathan';
    let release: (r: Response) => void = () => {};
    mockFetch((path) => {
      if (path.includes('page=2')) return new Promise<Response>((resolve) => (release = resolve));
      return jsonResponse(200, { ...list([{ ...rows[0], fullName: long }, rows[1]]), total: 60 });
    });
    const { container } = renderPage(<WalletPage />);
    const name = await screen.findByText(long);
    expect(name.getAttribute('data-truncate')).toBe('end');
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await vi.waitFor(() => expect(screen.queryByText('-50.25')).toBeNull());
    expect(container.querySelectorAll('.mantine-Skeleton-root').length).toBeGreaterThan(0);
    release(jsonResponse(200, { ...list([{ ...rows[1], id: 30, amount: 7 }]), total: 60, page: 2 }));
    expect(await screen.findByText('+7.00')).toBeTruthy();
  });
});
