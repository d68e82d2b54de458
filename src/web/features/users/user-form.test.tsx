import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, signIn } from '../../test-utils';
import UsersPage from './users-page';
import { page, selectInput, serve, user } from './users-test-kit';

describe('UsersPage: the user form', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('adds a user: required-field message, then a POST with only filled fields and a success banner', async () => {
    signIn(['users_view', 'users_create']);
    let posted: unknown = null;
    serve(() => page([user(1)]), (path, init) => {
      if (path === '/users/register' && init.method === 'POST') {
        posted = JSON.parse(String(init.body));
        return jsonResponse(201, { success: true, message: 'User created successfully', user: user(5, { fullName: 'New Person' }) });
      }
      return undefined;
    });
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save User' }));
    expect(await within(dialog).findByText('Please fill in all required fields (Full Name, Date of Birth, Email, Phone)')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Full Name/), { target: { value: 'New Person' } });
    fireEvent.change(within(dialog).getByLabelText(/Date of Birth/), { target: { value: '1991-02-03' } });
    fireEvent.change(within(dialog).getByLabelText(/Email Address/), { target: { value: 'new@test.local' } });
    fireEvent.change(within(dialog).getByLabelText(/Phone Number/), { target: { value: '9876543210' } });
    fireEvent.change(within(dialog).getByLabelText(/Referral Code/), { target: { value: 'BO1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save User' }));
    expect(await screen.findByText('User created successfully')).toBeTruthy();
    expect(posted).toEqual({ fullName: 'New Person', dob: '1991-02-03', email: 'new@test.local', phone: '9876543210', referralCode: 'BO1' });
  });

  it('shows the server message when saving fails', async () => {
    signIn(['users_view', 'users_create']);
    serve(() => page([user(1)]), (path) =>
      path === '/users/register' ? jsonResponse(400, { success: false, message: 'Invalid referral code' }) : undefined,
    );
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    fireEvent.change(within(dialog).getByLabelText(/Full Name/), { target: { value: 'X' } });
    fireEvent.change(within(dialog).getByLabelText(/Date of Birth/), { target: { value: '1991-02-03' } });
    fireEvent.change(within(dialog).getByLabelText(/Email Address/), { target: { value: 'x@test.local' } });
    fireEvent.change(within(dialog).getByLabelText(/Phone Number/), { target: { value: '9876543210' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save User' }));
    expect(await within(dialog).findByText('Invalid referral code')).toBeTruthy();
  });

  it('item 2: checks a field before sending and says what is wrong under it; a refusal marks its field in plain words and keeps the input', async () => {
    signIn(['users_view', 'users_create']);
    const posts: unknown[] = [];
    serve(() => page([user(1)]), (path, init) => {
      if (path !== '/users/register') return undefined;
      posts.push(JSON.parse(String(init.body)));
      return jsonResponse(400, {
        success: false,
        message: 'Phone number must be 10 to 13 digits',
        errors: [{ path: 'body.phone', field: 'phone', message: 'Phone number must be 10 to 13 digits' }],
      });
    });
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    const field = (label: RegExp) => within(dialog).getByLabelText(label) as HTMLInputElement;
    const errorOf = (input: HTMLInputElement) => document.getElementById(input.getAttribute('aria-describedby')?.split(' ').find((id) => id.endsWith('-error')) ?? '')?.textContent;
    fireEvent.change(field(/Full Name/), { target: { value: 'X' } });
    fireEvent.change(field(/Date of Birth/), { target: { value: '1991-02-03' } });
    fireEvent.change(field(/Email Address/), { target: { value: 'not-an-email' } });
    fireEvent.change(field(/Phone Number/), { target: { value: '9876543210' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save User' }));
    await waitFor(() => expect(errorOf(field(/Email Address/))).toBe('Enter a valid email address'));
    expect(field(/Email Address/).getAttribute('aria-invalid')).toBe('true');
    expect(posts).toEqual([]);
    expect(within(dialog).queryByText(/body\./)).toBeNull();

    fireEvent.change(field(/Email Address/), { target: { value: 'x@test.local' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save User' }));
    await waitFor(() => expect(errorOf(field(/Phone Number/))).toBe('Phone number must be 10 to 13 digits'));
    expect(posts).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Add User' })).toBeTruthy();
    expect(field(/Full Name/).value).toBe('X');
    expect(field(/Phone Number/).value).toBe('9876543210');
    expect(within(dialog).queryByText(/body\./)).toBeNull();
  });

  it('issue 24: a name over 100 characters is kept whole and refused at the field, nothing sent', async () => {
    signIn(['users_view', 'users_create']);
    const posted: unknown[] = [];
    serve(() => page([user(1)]), (path, init) => {
      if (path === '/users/register' && init.method === 'POST') posted.push(JSON.parse(String(init.body)));
      return undefined;
    });
    renderPage(<UsersPage />);
    await screen.findByText('Member 1');
    fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    const long = 'L'.repeat(300);
    fireEvent.change(within(dialog).getByLabelText(/Full Name/), { target: { value: long } });
    fireEvent.change(within(dialog).getByLabelText(/Date of Birth/), { target: { value: '1991-02-03' } });
    fireEvent.change(within(dialog).getByLabelText(/Email Address/), { target: { value: 'long@test.local' } });
    fireEvent.change(within(dialog).getByLabelText(/Phone Number/), { target: { value: '9876543210' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save User' }));
    expect(await within(dialog).findByText('Full name must be at most 100 characters')).toBeTruthy();
    expect((within(dialog).getByLabelText(/Full Name/) as HTMLInputElement).value).toHaveLength(300);
    expect(posted).toEqual([]);
  });

  it('edits a member with a PUT of the form fields and keeps the referrer read-only', async () => {
    signIn(['users_view', 'users_edit']);
    let put: { path: string; body: unknown } | null = null;
    serve(() => page([user(7, { fullName: 'Ravi Kumar', referredBy: 3, referrerName: 'Asha Rao', whatsapp: '9123456789' })]), (path, init) => {
      if (init.method === 'PUT') {
        put = { path, body: JSON.parse(String(init.body)) };
        return jsonResponse(200, { success: true, message: 'User updated successfully', updatedUser: user(7, { fullName: 'Ravi K' }) });
      }
      return undefined;
    });
    renderPage(<UsersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Ravi Kumar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect((within(dialog).getByLabelText(/Referral Code/) as HTMLInputElement).value).toBe('Asha Rao (ID: 3)');
    expect(within(dialog).getByLabelText(/Referral Code/).hasAttribute('disabled')).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Full Name/), { target: { value: 'Ravi K' } });
    fireEvent.change(within(dialog).getByLabelText(/WhatsApp Number/), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save User' }));
    expect(await screen.findByText('User updated successfully')).toBeTruthy();
    expect(put).toEqual({
      path: '/users/updateByUserId/7',
      body: { fullName: 'Ravi K', dob: '1990-01-01', email: 'm7@test.local', phone: '980007', whatsapp: '', image: '' },
    });
  });

  it('puts the new user first when a filter is active (spec §4)', async () => {
    signIn(['users_view', 'users_create']);
    serve((url) => page(url.searchParams.get('level') === '3' ? [user(1, { level: 3 })] : [user(1), user(2)]), (path) =>
      path === '/users/register'
        ? jsonResponse(201, { success: true, message: 'User created successfully', user: user(5, { fullName: 'New Person' }) })
        : undefined,
    );
    renderPage(<UsersPage />);
    await screen.findByText('Member 2');
    fireEvent.click(selectInput('Filter by level'));
    fireEvent.click((await screen.findAllByRole('option', { name: 'Level 3', hidden: true })).at(-1)!);
    await waitFor(() => expect(screen.queryByText('Member 2')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    fireEvent.change(within(dialog).getByLabelText(/Full Name/), { target: { value: 'New Person' } });
    fireEvent.change(within(dialog).getByLabelText(/Date of Birth/), { target: { value: '1991-02-03' } });
    fireEvent.change(within(dialog).getByLabelText(/Email Address/), { target: { value: 'new@test.local' } });
    fireEvent.change(within(dialog).getByLabelText(/Phone Number/), { target: { value: '9876543210' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save User' }));
    expect(await screen.findByText('User created successfully')).toBeTruthy();
    await waitFor(() => expect(within(screen.getAllByRole('row')[1]).queryByText('New Person')).toBeTruthy());
    expect(within(screen.getAllByRole('row')[2]).getByText('Member 1')).toBeTruthy();
  });

  it('item 9: changes a member’s status and rank from the edit form', async () => {
    signIn(['users_view', 'users_edit']);
    let put: unknown = null;
    serve(() => page([user(7, { fullName: 'Ravi Kumar', rankId: 100002, rank: 'Silver' })]), (path, init) => {
      if (init.method === 'PUT') {
        put = JSON.parse(String(init.body));
        return jsonResponse(200, { success: true, message: 'User updated successfully', updatedUser: user(7, { status: false, rankId: 100001, rank: 'Bronze' }) });
      }
      return undefined;
    });
    renderPage(<UsersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Ravi Kumar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    const status = within(dialog).getAllByLabelText('Status').find((el) => el.tagName === 'INPUT') as HTMLInputElement;
    const rank = within(dialog).getAllByLabelText('Rank').find((el) => el.tagName === 'INPUT') as HTMLInputElement;
    expect(status.value).toBe('Active');
    await waitFor(() => expect(rank.value).toBe('Silver'));
    fireEvent.click(status);
    fireEvent.click((await screen.findAllByRole('option', { name: 'Inactive', hidden: true })).at(-1)!);
    fireEvent.click(rank);
    fireEvent.click((await screen.findAllByRole('option', { name: 'Bronze', hidden: true })).at(-1)!);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save User' }));
    expect(await screen.findByText('User updated successfully')).toBeTruthy();
    expect(put).toMatchObject({ status: false, rankId: 100001 });
  });
});
