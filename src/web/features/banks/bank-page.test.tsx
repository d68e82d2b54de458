import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

  it('shows account numbers masked; without banks_manage there is nothing to change', async () => {
    signIn(['banks_view', 'users_view']);
    mockFetch((path) => (path === '/banks/getBanksByUserId/1' ? jsonResponse(200, { success: true, data: [account(11, true, 'Pune')] }) : jsonResponse(200, USERS)));
    renderPage(<BankPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'View Bank Details of Asha Rao' }));
    const card = await within(await screen.findByRole('dialog')).findByRole('region', { name: 'Account #1' });
    expect(within(card).getByText('XXXXXX7811')).toBeTruthy();
    expect(within(card).queryByText('1234567811')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Account' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
  });

  it('adds an account: IFSC and account number are checked on their fields before sending, then the list refreshes', async () => {
    signIn(['banks_view', 'banks_manage', 'users_view']);
    let stored = [account(11, true, 'Pune')];
    const fetchMock = mockFetch((path, init) => {
      if (path === '/banks/createBankAccount') {
        const body = JSON.parse(String(init.body));
        const created = { ...account(12, false, null), ...body, ifsc: body.ifsc.toUpperCase(), branch: body.branch || null, isPrimary: false };
        stored = [...stored, created];
        return jsonResponse(201, { success: true, message: 'Bank account created successfully', data: created });
      }
      if (path === '/banks/getBanksByUserId/1') return jsonResponse(200, { success: true, data: stored });
      return jsonResponse(200, USERS);
    });
    renderPage(<BankPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'View Bank Details of Asha Rao' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add Account' }));
    const form = await screen.findByRole('form', { name: 'Add Bank Account' });
    expect((within(form).getByLabelText(/Account Holder/) as HTMLInputElement).value).toBe('Asha Rao');
    fireEvent.change(within(form).getByLabelText(/Account Number/), { target: { value: '12345' } });
    fireEvent.change(within(form).getByLabelText(/IFSC Code/), { target: { value: 'SBIN1001234' } });
    fireEvent.change(within(form).getByLabelText(/Bank Name/), { target: { value: 'State Bank of India' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add Account' }));
    expect(await within(form).findByText('IFSC code must look like SBIN0001234 (4 letters, 0, then 6 letters or digits)')).toBeTruthy();
    expect(within(form).getByText('Account number must be 9 to 18 digits')).toBeTruthy();
    expect(within(form).getByLabelText(/IFSC Code/).getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    // What was typed stays as typed; a lower-case IFSC is fine (the contract upper-cases it).
    expect((within(form).getByLabelText(/IFSC Code/) as HTMLInputElement).value).toBe('SBIN1001234');
    fireEvent.change(within(form).getByLabelText(/Account Number/), { target: { value: '987654321012' } });
    fireEvent.change(within(form).getByLabelText(/IFSC Code/), { target: { value: 'hdfc0000123' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add Account' }));
    expect(await screen.findByText('Bank account created successfully')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({ userId: 1, accountNumber: '987654321012', ifsc: 'hdfc0000123', bank: 'State Bank of India' });
    // The list is read again: the new account shows, masked.
    expect(await within(screen.getByRole('dialog', { name: /Bank Details/ })).findByRole('region', { name: 'Account #2' })).toBeTruthy();
    expect(screen.getByText('XXXXXXXX1012')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Add Bank Account' })).toBeNull();
  });

  it('keeps the form open with the input when the server refuses, the message on its field', async () => {
    signIn(['banks_view', 'banks_manage', 'users_view']);
    const duplicate = 'This bank account (account number and IFSC) is already added for this member';
    mockFetch((path) => {
      if (path === '/banks/updateBank/11') {
        return jsonResponse(409, { success: false, message: duplicate, errors: [{ path: 'body.accountNumber', field: 'accountNumber', message: duplicate }] });
      }
      if (path === '/banks/getBanksByUserId/1') return jsonResponse(200, { success: true, data: [account(11, true, 'Pune'), account(12, false, null)] });
      return jsonResponse(200, USERS);
    });
    renderPage(<BankPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'View Bank Details of Asha Rao' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit account ending 7811' }));
    const form = await screen.findByRole('form', { name: 'Edit Bank Account' });
    // The edit form holds the whole number; the primary can't be unticked here.
    const number = within(form).getByLabelText(/Account Number/) as HTMLInputElement;
    expect(number.value).toBe('1234567811');
    expect((within(form).getByLabelText('Primary account') as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(number, { target: { value: '123456782' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Update' }));
    expect(await within(form).findByText(duplicate)).toBeTruthy();
    await waitFor(() => expect(number.getAttribute('aria-invalid')).toBe('true'));
    expect(number.value).toBe('123456782');
    // Escape closes the form only, not the member's bank details under it.
    fireEvent.keyDown(number, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Bank Account' })).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Bank Details: Asha Rao' })).toBeTruthy();
  });

  it('issue 22: a new account number is filed for approval (202): the panel says it awaits approval, not that it was updated', async () => {
    signIn(['banks_view', 'banks_manage', 'users_view']);
    const awaits = 'The new account number awaits approval by a second operator on the Approvals screen; the account keeps its current number until then';
    mockFetch((path) => {
      if (path === '/banks/updateBank/11') return jsonResponse(202, { success: true, message: awaits, data: { approvalId: 41, status: 'pending' } });
      if (path === '/banks/getBanksByUserId/1') return jsonResponse(200, { success: true, data: [account(11, true, 'Pune')] });
      return jsonResponse(200, USERS);
    });
    renderPage(<BankPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'View Bank Details of Asha Rao' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit account ending 7811' }));
    const form = await screen.findByRole('form', { name: 'Edit Bank Account' });
    fireEvent.change(within(form).getByLabelText(/Account Number/), { target: { value: '999988887777' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(awaits)).toBeTruthy();
    expect(screen.getByText('Awaiting approval')).toBeTruthy();
    expect(screen.queryByText('Bank account updated successfully')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Bank Account' })).toBeNull());
  });

  it('making an account primary is filed for approval (202): the panel says so; the primary has no Delete', async () => {
    signIn(['banks_view', 'banks_manage', 'users_view']);
    const awaits = 'Making this account primary awaits approval by a second operator on the Approvals screen; payouts go to the current primary account until then';
    const sent: string[] = [];
    mockFetch((path, init) => {
      if (path === '/banks/updateBank/12') {
        sent.push(`${init?.method} ${path} ${init?.body}`);
        return jsonResponse(202, { success: true, message: awaits, data: { approvalId: 42, status: 'pending' } });
      }
      if (path === '/banks/getBanksByUserId/1') return jsonResponse(200, { success: true, data: [account(11, true, 'Pune'), account(12, false, null)] });
      return jsonResponse(200, USERS);
    });
    renderPage(<BankPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'View Bank Details of Asha Rao' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bank Details: Asha Rao' });
    const primary = await within(dialog).findByRole('region', { name: 'Account #1' });
    const other = within(dialog).getByRole('region', { name: 'Account #2' });
    expect(within(primary).queryByRole('button', { name: /^Delete / })).toBeNull();
    expect(within(other).getByRole('button', { name: /^Delete account ending/ })).toBeTruthy();
    fireEvent.click(within(other).getByRole('button', { name: /^Make account ending .* primary$/ }));
    expect(await screen.findByText(awaits)).toBeTruthy();
    expect(screen.getByText('Awaiting approval')).toBeTruthy();
    expect(screen.queryByText(/is now the primary account/)).toBeNull();
    expect(sent).toEqual(['PUT /banks/updateBank/12 {"isPrimary":true}']);
  });

  it('sorts the member list on the server and keeps search and order in the address', async () => {
    signIn(['banks_view', 'users_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, USERS));
    const listCalls = () => fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/users/getAllusers'));
    const { router } = renderPage(<BankPage />, { url: '/?q=asha' });
    await screen.findByText('Asha Rao');
    expect((screen.getByLabelText('Find a member') as HTMLInputElement).value).toBe('asha');
    expect(listCalls().at(-1)).toContain('search=asha');
    fireEvent.click(screen.getByRole('button', { name: /User ID/ }));
    await waitFor(() => expect(listCalls().at(-1)).toMatch(/sort=userId\b/));
    await waitFor(() => expect(router.state.location.search).toBe('?q=asha&sort=userId'));
    expect(screen.getByRole('columnheader', { name: /User ID/ }).getAttribute('aria-sort')).toBe('ascending');
  });
});
