import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage } from '../../test-utils';
import AcceptInvitePage from './accept-invite-page';
import ForgotPasswordPage from './forgot-password-page';
import ResetPasswordPage from './reset-password-page';

describe('forgot and reset password', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends the email and shows the server's answer", async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse(200, { success: true, message: 'If that email is registered, a reset link is on its way.' }),
    );
    renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    fireEvent.change(screen.getByLabelText(/^Email address/), { target: { value: 'Asha@Example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('If that email is registered, a reset link is on its way.')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/users/forgot-password');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'asha@example.com' });
  });

  it('resets with the token of the link, then offers the way back to sign-in', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true, message: 'Your password has been reset.' }));
    renderPage(<ResetPasswordPage />, { path: '/reset-password', url: '/reset-password?token=abcdefghijkl' });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'new-password-1' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'new-password-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'new-password-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Your password has been reset.')).toBeTruthy();
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ token: 'abcdefghijkl', newPassword: 'new-password-1' });
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/signin');
  });

  it('an invited staff member sets a first password with the invitation link\'s token', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true, message: 'Your password has been set. You can sign in now.' }));
    renderPage(<AcceptInvitePage />, { path: '/accept-invite', url: '/accept-invite?token=invite-token-123' });
    expect(screen.getByRole('heading', { name: 'Set your password' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'staff-password-1' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'staff-password-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Your password has been set. You can sign in now.')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/users/reset-password');
    expect(JSON.parse(String(init?.body))).toEqual({ token: 'invite-token-123', newPassword: 'staff-password-1' });
  });

  it('says an invitation link without a token is incomplete and sends nothing', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderPage(<AcceptInvitePage />, { path: '/accept-invite' });
    expect(screen.getByRole('alert').textContent).toMatch(/This invitation link is invalid or incomplete/);
    expect((screen.getByRole('button', { name: 'Set password' }) as HTMLButtonElement).disabled).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('issue 22: a password the server refuses is shown under the New password field', async () => {
    const message = 'This password repeats too few characters: choose one that is harder to guess';
    mockFetch(() => jsonResponse(400, { success: false, message, errors: [{ path: 'body.newPassword', field: 'newPassword', message }] }));
    renderPage(<ResetPasswordPage />, { path: '/reset-password', url: '/reset-password?token=abcdefghijkl' });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText('Password must be at least 10 characters')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'abababababab' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'abababababab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    const shown = await screen.findByText(message);
    expect(screen.getByLabelText(/^New password/).getAttribute('aria-describedby')).toContain(shown.id);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
