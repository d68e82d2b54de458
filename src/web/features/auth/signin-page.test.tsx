import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, TEST_USER } from '../../test-utils';
import SignInPage from './signin-page';

function fillAndSubmit(email: string, password: string) {
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Access Portal' }));
}

describe('SignInPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the texts of the sign-in screen', () => {
    renderPage(<SignInPage />, { path: '/signin' });
    expect(screen.getByRole('heading', { name: 'Admin Portal' })).toBeTruthy();
    expect(screen.getByText('Secure access to financial dashboard')).toBeTruthy();
    expect(screen.getByLabelText(/^Email/)).toBeTruthy();
    expect(screen.getByLabelText(/^Password/)).toBeTruthy();
    expect(screen.getByLabelText('Remember me')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.getByRole('button', { name: 'Access Portal' })).toBeTruthy();
  });

  it('asks for the missing fields with its own messages and calls nothing', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderPage(<SignInPage />, { path: '/signin' });
    fireEvent.click(screen.getByRole('button', { name: 'Access Portal' }));
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reads "Accessing Portal..." while busy, then shows the fallback error when the server gives no message', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderPage(<SignInPage />, { path: '/signin' });
    fillAndSubmit('admin@example.com', 'secret');
    expect(await screen.findByRole('button', { name: 'Accessing Portal...' })).toBeTruthy();
    // Busy starts before the request leaves (the typed client is a chunk of its own): answer the request, once sent.
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    answer(new Response('', { status: 500 }));
    expect(await screen.findByText('Authentication failed. Please check your credentials.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Access Portal' })).toBeTruthy();
  });

  it("shows the server's message on a rejected login and keeps the visitor signed out", async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse(401, { success: false, message: 'Invalid email or password', data: { message: 'Invalid email or password' } }),
    );
    renderPage(<SignInPage />, { path: '/signin' });
    fireEvent.click(screen.getByLabelText('Remember me'));
    fillAndSubmit('admin@example.com', 'wrong');
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    const [, init] = fetchMock.mock.calls[0];
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'admin@example.com', password: 'wrong', rememberMe: true });
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('stores the session and goes to the dashboard after a successful login', async () => {
    mockFetch((path) =>
      path === '/Adminlogin'
        ? jsonResponse(200, { success: true, message: 'Login successful', data: { token: 'tok-1', user: TEST_USER } })
        : jsonResponse(200, { success: true, data: TEST_USER }),
    );
    renderPage(<SignInPage />, { path: '/signin' });
    fillAndSubmit('admin@example.com', 'right');
    expect((await screen.findByTestId('location')).textContent).toBe('/');
    expect(localStorage.getItem('authToken')).toBe('tok-1');
    expect(localStorage.getItem('userToken')).toBe('tok-1');
    await waitFor(() => expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(TEST_USER));
  });

  it('asks for the two-factor code after a right password, keeps email and password, and sends them with the code', async () => {
    const CODE_NEEDED = 'Enter the 6-digit code from your authenticator app';
    const fetchMock = mockFetch((path, init) => {
      if (path !== '/Adminlogin') return jsonResponse(200, { success: true, data: TEST_USER });
      const body = JSON.parse(String(init.body)) as { code?: string };
      if (!body.code) return jsonResponse(401, { success: false, message: CODE_NEEDED, data: { message: CODE_NEEDED }, twoFactorRequired: true });
      if (body.code !== '246810') {
        return jsonResponse(401, { success: false, message: 'Invalid two-factor code', data: { message: 'Invalid two-factor code' }, twoFactorRequired: true });
      }
      return jsonResponse(200, { success: true, message: 'Login successful', data: { token: 'tok-2fa', user: TEST_USER } });
    });
    renderPage(<SignInPage />, { path: '/signin' });
    fillAndSubmit('admin@example.com', 'right');

    const codeField = await screen.findByLabelText(/^Two-factor code/);
    expect(screen.getByRole('status').textContent).toContain('admin@example.com');
    expect(screen.queryByRole('alert')).toBeNull(); // being asked for the code is not an error
    expect(screen.queryByLabelText(/^Password/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText(CODE_NEEDED)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fireEvent.change(codeField, { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid two-factor code');
    expect(screen.getByLabelText(/^Two-factor code/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/^Two-factor code/), { target: { value: ' 246810 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/');
    expect(localStorage.getItem('authToken')).toBe('tok-2fa');
    const sent = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/Adminlogin')).map(([, init]) => JSON.parse(String(init?.body)));
    expect(sent.at(-1)).toEqual({ email: 'admin@example.com', password: 'right', rememberMe: false, code: '246810' });
  });

  it('accepts a recovery code in the code field', async () => {
    const fetchMock = mockFetch((path, init) => {
      const body = JSON.parse(String(init.body ?? '{}')) as { code?: string };
      if (path === '/Adminlogin' && !body.code) {
        return jsonResponse(401, { success: false, message: 'Enter the 6-digit code from your authenticator app', twoFactorRequired: true });
      }
      return jsonResponse(200, { success: true, message: 'Login successful', data: { token: 'tok-r', user: TEST_USER } });
    });
    renderPage(<SignInPage />, { path: '/signin' });
    fillAndSubmit('admin@example.com', 'right');
    fireEvent.change(await screen.findByLabelText(/^Two-factor code/), { target: { value: 'abcde-fghij' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/');
    expect(JSON.parse(String(fetchMock.mock.calls[1][1]?.body)).code).toBe('abcde-fghij');
  });

  it('sends an account that must set up two-factor to the setup page', async () => {
    const user = { ...TEST_USER, permissions: [], twoFactorSetupRequired: true };
    mockFetch(() => jsonResponse(200, { success: true, message: 'Login successful', data: { token: 'tok-e', user } }));
    renderPage(<SignInPage />, { path: '/signin' });
    fillAndSubmit('admin@example.com', 'right');
    expect((await screen.findByTestId('location')).textContent).toBe('/two-factor-setup');
  });
});
