import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn, TEST_USER } from '../../test-utils';
import { ChangeEmailSection } from './change-email-section';

describe('ChangeEmailSection', () => {
  afterEach(() => vi.unstubAllGlobals());

  function server() {
    signIn([]);
    return mockFetch((path, init) => {
      if (path === '/account/email') {
        const { password } = JSON.parse(String(init.body)) as { password: string };
        return password === 'right-password'
          ? jsonResponse(200, { success: true, message: 'We have mailed a link to me@example.com: your sign-in email changes when you follow it (within 72 hours)' })
          : jsonResponse(400, { success: false, message: 'Your password is not correct' });
      }
      return jsonResponse(200, { success: true, data: TEST_USER });
    });
  }
  const emailCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
    fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/account/email'));

  it('checks the email and the password before sending, shows a refusal and keeps what was typed, then changes it', async () => {
    const fetchMock = server();
    const messages: string[] = [];
    renderPage(<ChangeEmailSection onMessage={(m) => messages.push(m)} />, { path: '/account' });
    const email = screen.getByLabelText('New email') as HTMLInputElement;
    const password = screen.getByLabelText('Your password') as HTMLInputElement;

    fireEvent.change(email, { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change email' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid email address');
    fireEvent.change(email, { target: { value: 'me@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change email' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter your password');
    expect(emailCalls(fetchMock)).toHaveLength(0);

    fireEvent.change(password, { target: { value: 'wrong-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change email' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your password is not correct');
    expect(email.value).toBe('me@example.com');

    fireEvent.change(password, { target: { value: 'right-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change email' }));
    await waitFor(() => expect(messages).toEqual(['We have mailed a link to me@example.com: your sign-in email changes when you follow it (within 72 hours)']));
    expect(JSON.parse(String(emailCalls(fetchMock).at(-1)![1]!.body))).toEqual({ email: 'me@example.com', password: 'right-password' });
    expect(email.value).toBe('');
  });
});
