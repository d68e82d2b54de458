import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn, TEST_USER } from '../../test-utils';
import { ChangePasswordSection } from './change-password-section';

describe('ChangePasswordSection (issue 24)', () => {
  afterEach(() => vi.unstubAllGlobals());

  function server() {
    signIn([]);
    return mockFetch((path, init) => {
      if (path === '/account/password') {
        const { currentPassword, newPassword } = JSON.parse(String(init.body)) as { currentPassword: string; newPassword: string };
        if (currentPassword !== 'right-password') return jsonResponse(400, { success: false, message: 'Your current password is not correct' });
        if (newPassword === 'password123') {
          return jsonResponse(400, {
            success: false, message: 'Invalid input',
            errors: [{ path: 'body.newPassword', field: 'newPassword', message: 'This is one of the most common passwords: choose one that is harder to guess' }],
          });
        }
        return jsonResponse(200, { success: true, message: 'Your password has been changed. Your other sessions have been signed out.' });
      }
      return jsonResponse(200, { success: true, data: TEST_USER });
    });
  }
  const calls = (fetchMock: ReturnType<typeof mockFetch>) => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/account/password'));
  const fill = (current: string, next: string, confirm = next) => {
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: current } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: next } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirm } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
  };

  it('checks before sending: current required, at least 10 characters, the two new ones match', () => {
    const fetchMock = server();
    renderPage(<ChangePasswordSection onMessage={() => undefined} />, { path: '/account' });
    fill('', 'short', 'other');
    expect(screen.getByText('Enter your current password')).toBeTruthy();
    expect(screen.getByText('Password must be at least 10 characters')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(calls(fetchMock)).toHaveLength(0);
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('short');
  });

  it('shows the server\u2019s refusals (under the field for the policy), keeps what was typed, then changes it', async () => {
    const fetchMock = server();
    const messages: string[] = [];
    renderPage(<ChangePasswordSection onMessage={(m) => messages.push(m)} />, { path: '/account' });
    fill('wrong-password', 'Quiet-harbour-42');
    expect((await screen.findByRole('alert')).textContent).toBe('Your current password is not correct');
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('wrong-password');
    fill('right-password', 'password123');
    expect(await screen.findByText('This is one of the most common passwords: choose one that is harder to guess')).toBeTruthy();
    fill('right-password', 'Quiet-harbour-42');
    await waitFor(() => expect(messages).toEqual(['Your password has been changed. Your other sessions have been signed out.']));
    expect(JSON.parse(String(calls(fetchMock).at(-1)![1]?.body))).toEqual({ currentPassword: 'right-password', newPassword: 'Quiet-harbour-42' });
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('');
  });
});
