import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffMember } from '../../../contract/staff';
import { jsonResponse, mockFetch, renderPage, signIn, TEST_USER } from '../../test-utils';
import StaffPage from './staff-page';

const member = (over: Partial<StaffMember>): StaffMember => ({
  userId: 200001, fullName: 'Staff Person', email: 'staff@example.com', roleId: 3, role: 'Support', status: true,
  lastSignIn: null, twoFactorEnabled: false, invitePending: false, passwordSet: true, unconfirmed: false, ...over,
});

const STAFF = [
  member({ userId: 200003, fullName: 'Neha Invited', email: 'neha@example.com', invitePending: true, passwordSet: false }),
  member({ userId: 200002, fullName: 'Ravi Off', email: 'ravi@example.com', status: false, lastSignIn: '2026-01-05T10:00:00.000Z' }),
  member({ userId: TEST_USER.userId, fullName: 'Asha Admin', email: TEST_USER.email, roleId: 1, role: 'Admin', twoFactorEnabled: true, lastSignIn: '2026-01-06T09:00:00.000Z' }),
];
const ROLES = [
  { roleId: 1, name: 'Admin', twoFactorRequired: true },
  { roleId: 3, name: 'Support', twoFactorRequired: false },
];
const page = (data: StaffMember[]) => jsonResponse(200, { success: true, data, total: data.length, page: 1, limit: 25 });

type Handler = (path: string, init: RequestInit) => Response | undefined;
function serve(handler: Handler = () => undefined) {
  return mockFetch((path, init) => {
    const answer = handler(path, init);
    if (answer) return answer;
    if (path.startsWith('/staff/roles')) return jsonResponse(200, { success: true, data: ROLES });
    if (path === '/users/me') return jsonResponse(200, { success: true, data: TEST_USER });
    return page(STAFF);
  });
}

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('StaffPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists staff with role, status, invitation, last sign-in and two-factor; filters go to the server', async () => {
    signIn(['staff_manage']);
    const fetchMock = serve();
    renderPage(<StaffPage />);
    expect(screen.getByRole('heading', { name: 'Staff' })).toBeTruthy();
    expect(screen.getByText('Loading staff...')).toBeTruthy();
    await screen.findByText('Neha Invited');
    expect(within(row('Neha Invited')).getByText('Invitation pending')).toBeTruthy();
    expect(within(row('Neha Invited')).getByText('Never')).toBeTruthy();
    expect(within(row('Neha Invited')).getByRole('button', { name: 'Resend invitation to Neha Invited' })).toBeTruthy();
    expect(within(row('Ravi Off')).getByText('Inactive')).toBeTruthy();
    expect(within(row('Ravi Off')).getByRole('button', { name: 'Reactivate Ravi Off' })).toBeTruthy();
    const me = row('Asha Admin');
    expect(within(me).getByText('You')).toBeTruthy();
    expect(within(me).getByText('On')).toBeTruthy();
    expect((within(me).getByRole('button', { name: 'Change role of Asha Admin' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(me).getByRole('button', { name: 'Deactivate Asha Admin' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Total Staff: 3')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'neha' } });
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/staff?page=1&limit=25&q=neha&sort=-userId')).toBe(true));
  });

  it('issue 15: search, status and order come from the address and go back to it; a header sorts on the server', async () => {
    signIn(['staff_manage']);
    const fetchMock = serve(() => jsonResponse(200, { success: true, data: [], total: 0, page: 1, limit: 25 }));
    const { router } = renderPage(<StaffPage />, { url: '/?q=asha&status=active&sort=fullName' });
    const urls = () => fetchMock.mock.calls.map(([url]) => String(url));
    await waitFor(() => expect(urls()).toContain('/api/staff?page=1&limit=25&q=asha&status=active&sort=fullName'));
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('asha');
    const table = screen.getByRole('table', { name: 'Staff' });
    expect(within(table).getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(table).getByRole('button', { name: /Last sign-in/ }));
    await waitFor(() => expect(urls()).toContain('/api/staff?page=1&limit=25&q=asha&status=active&sort=lastSignIn'));
    await waitFor(() => expect(router.state.location.search).toBe('?q=asha&status=active&sort=lastSignIn'));
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'neha' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=neha&status=active&sort=lastSignIn'));
  });

  it('invites a colleague with a role and says who was invited', async () => {
    signIn(['staff_manage']);
    const fetchMock = serve((path, init) =>
      path === '/staff/invite' && init.method === 'POST'
        ? jsonResponse(201, {
          success: true, message: 'Invitation sent to Meera Nair (meera@example.com)',
          data: member({ userId: 200009, fullName: 'Meera Nair', email: 'meera@example.com', invitePending: true, passwordSet: false }),
        })
        : undefined,
    );
    renderPage(<StaffPage />);
    await screen.findByText('Neha Invited');
    fireEvent.click(screen.getByRole('button', { name: 'Invite staff' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Full name/), { target: { value: 'Meera Nair' } });
    fireEvent.change(within(dialog).getByLabelText(/Email/), { target: { value: 'meera@example.com' } });
    await waitFor(() => expect((within(dialog).getByLabelText(/^Role/) as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(within(dialog).getByLabelText(/^Role/));
    fireEvent.click(await screen.findByRole('option', { name: 'Support', hidden: true }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to Meera Nair (meera@example.com)')).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === '/api/staff/invite')!;
    expect(JSON.parse(String(init!.body))).toEqual({ fullName: 'Meera Nair', email: 'meera@example.com', roleId: 3 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('checks the invitation form before sending anything', async () => {
    signIn(['staff_manage']);
    const fetchMock = serve();
    renderPage(<StaffPage />);
    await screen.findByText('Neha Invited');
    fireEvent.click(screen.getByRole('button', { name: 'Invite staff' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Email/), { target: { value: 'not-an-email' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Full name is required')).toBeTruthy();
    expect(within(dialog).getByText('Enter a valid email address')).toBeTruthy();
    expect(within(dialog).getByText('Please select a role')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/staff/invite')).toBe(false);
  });

  it('shows a refusal in the form and keeps what was typed', async () => {
    signIn(['staff_manage']);
    serve((path) =>
      path === '/staff/invite'
        ? jsonResponse(403, { success: false, message: 'You can only assign a role whose permissions you hold yourself; Admin also grants wallet_manage' })
        : undefined,
    );
    renderPage(<StaffPage />);
    await screen.findByText('Neha Invited');
    fireEvent.click(screen.getByRole('button', { name: 'Invite staff' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Full name/), { target: { value: 'Sneaky Person' } });
    fireEvent.change(within(dialog).getByLabelText(/Email/), { target: { value: 'sneaky@example.com' } });
    await waitFor(() => expect((within(dialog).getByLabelText(/^Role/) as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(within(dialog).getByLabelText(/^Role/));
    fireEvent.click(await screen.findByRole('option', { name: 'Admin (two-factor required)', hidden: true }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'You can only assign a role whose permissions you hold yourself; Admin also grants wallet_manage',
    );
    expect((within(dialog).getByLabelText(/Full name/) as HTMLInputElement).value).toBe('Sneaky Person');
    expect((within(dialog).getByLabelText(/Email/) as HTMLInputElement).value).toBe('sneaky@example.com');
  });

  it('confirms a deactivation and shows the server\u2019s refusal; sign out everywhere reports the sessions ended', async () => {
    signIn(['staff_manage']);
    const target = member({ userId: 200004, fullName: 'Last Admin', role: 'Admin' });
    const fetchMock = serve((path) => {
      if (path === '/staff/200004/status') {
        return jsonResponse(409, { success: false, message: 'Last Admin is the last active administrator and cannot be deactivated; make another account an administrator first' });
      }
      if (path === '/staff/200004/sign-out') return jsonResponse(200, { success: true, message: 'Last Admin was signed out of 2 sessions', data: target });
      return path.startsWith('/staff?') ? page([target]) : undefined;
    });
    renderPage(<StaffPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Deactivate Last Admin' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deactivate staff member' });
    expect(within(confirm).getByText(/They are signed out everywhere/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText(/is the last active administrator and cannot be deactivated/)).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === '/api/staff/200004/status')!;
    expect(JSON.parse(String(init!.body))).toEqual({ status: false });

    fireEvent.click(screen.getByRole('button', { name: 'Sign out Last Admin everywhere' }));
    const signOut = await screen.findByRole('dialog', { name: 'Sign out everywhere' });
    fireEvent.click(within(signOut).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('Last Admin was signed out of 2 sessions')).toBeTruthy();
  });

  it('issue 22: one\u2019s own sign-in email is not edited here (it changes under Your account); an unconfirmed registration is marked and gets no role', async () => {
    signIn(['staff_manage']);
    const squatter = member({ userId: 200010, fullName: 'Self Registered', email: 'someone@example.com', roleId: null, role: null, unconfirmed: true });
    const fetchMock = serve((path, init) => {
      if (path === `/staff/${TEST_USER.userId}` && init.method === 'PUT') {
        return jsonResponse(200, { success: true, message: 'Staff member updated successfully', data: STAFF[2] });
      }
      return path.startsWith('/staff?') ? page([...STAFF, squatter]) : undefined;
    });
    renderPage(<StaffPage />);
    await screen.findByText('Self Registered');
    expect(within(row('Self Registered')).getByText('Email not confirmed')).toBeTruthy();
    expect((within(row('Self Registered')).getByRole('button', { name: 'Change role of Self Registered' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(row('Asha Admin')).getByRole('button', { name: 'Edit Asha Admin' }));
    const dialog = await screen.findByRole('dialog');
    const email = within(dialog).getByLabelText(/Email/) as HTMLInputElement;
    expect(email.readOnly).toBe(true);
    expect(within(dialog).getByRole('link', { name: 'Your account' }).getAttribute('href')).toBe('/account');
    fireEvent.change(within(dialog).getByLabelText(/Full name/), { target: { value: 'Asha A.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url) === `/api/staff/${TEST_USER.userId}`)).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === `/api/staff/${TEST_USER.userId}`)!;
    expect(JSON.parse(String(init!.body))).toEqual({ fullName: 'Asha A.' });
  });

  it('reports a load failure', async () => {
    signIn(['staff_manage']);
    serve((path) => (path.startsWith('/staff?') ? jsonResponse(500, { success: false, message: 'Internal server error' }) : undefined));
    renderPage(<StaffPage />);
    expect(await screen.findByText('Failed to load data: Internal server error')).toBeTruthy();
  });

  it('issue 24: Download CSV exports the filtered list (search, status, order) from the server', async () => {
    signIn(['staff_manage']);
    const createObjectURL = vi.fn(() => 'blob:staff');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const fetchMock = serve((path) => (path.startsWith('/staff.csv') ? new Response('User ID\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }) : undefined));
    renderPage(<StaffPage />, { url: '/?status=inactive&sort=fullName' });
    await screen.findByText('Ravi Off');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/staff.csv?status=inactive&sort=fullName');
  });
});
