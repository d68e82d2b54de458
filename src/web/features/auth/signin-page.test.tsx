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
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderPage(<SignInPage />, { path: '/signin' });
    fillAndSubmit('admin@example.com', 'secret');
    expect(await screen.findByRole('button', { name: 'Accessing Portal...' })).toBeTruthy();
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
});
