import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage } from '../../test-utils';
import RegisterPage from './register-page';

const VALID = {
  Username: 'asha_k',
  'Full name': 'Asha Kumar',
  'Email address': 'asha@example.com',
  'Phone number': '9876543210',
  Address: '12 MG Road, Pune',
  Password: 'long-enough-1',
  'Confirm password': 'long-enough-1',
};

function fill(values: Partial<Record<keyof typeof VALID, string>>) {
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(new RegExp(`^${label}`)), { target: { value } });
  }
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));

describe('RegisterPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the registration form with a link back to sign-in', () => {
    renderPage(<RegisterPage />, { path: '/register' });
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeTruthy();
    for (const label of Object.keys(VALID)) expect(screen.getByLabelText(new RegExp(`^${label}`))).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/signin');
  });

  it('asks for every field', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderPage(<RegisterPage />, { path: '/register' });
    fill({ ...VALID, Address: '   ' });
    submit();
    expect(screen.getByRole('alert').textContent).toContain('Please fill in all fields');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses passwords that do not match', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderPage(<RegisterPage />, { path: '/register' });
    fill({ ...VALID, 'Confirm password': 'something-else' });
    submit();
    expect(screen.getByRole('alert').textContent).toContain('Passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('checks the fields against the shared contract before sending', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderPage(<RegisterPage />, { path: '/register' });
    fill({ ...VALID, 'Phone number': '12' });
    submit();
    expect(screen.getByText('Phone number must be 10 to 13 digits')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('issue 22: a registration is confirmed by mail: the page says so and keeps no session', async () => {
    const message = 'Registration successful. We have sent a link to asha@example.com: follow it to confirm your address, then sign in.';
    const fetchMock = mockFetch(() => jsonResponse(201, {
      success: true, message, token: 'not-kept-token-1234567890',
      user: { _id: '9', userId: 9, name: 'asha_k', fullName: 'Asha Kumar', email: 'asha@example.com', role: '', permissions: [], twoFactorEnabled: false, twoFactorSetupRequired: false },
    }));
    renderPage(<RegisterPage />, { path: '/register' });
    fill(VALID);
    submit();
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(message);
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toMatchObject({ email: 'asha@example.com', password: 'long-enough-1' });
  });

  it('issue 22: a password under 10 characters is refused before sending; one the server refuses shows under the field', async () => {
    const fetchMock = mockFetch(() => jsonResponse(400, {
      success: false, message: 'This is one of the most common passwords: choose one that is harder to guess',
      errors: [{ path: 'body.password', field: 'password', message: 'This is one of the most common passwords: choose one that is harder to guess' }],
    }));
    renderPage(<RegisterPage />, { path: '/register' });
    fill({ ...VALID, Password: 'aaaaaaaa', 'Confirm password': 'aaaaaaaa' });
    submit();
    expect(screen.getByText('Password must be at least 10 characters')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fill({ Password: 'password123', 'Confirm password': 'password123' });
    submit();
    const message = await screen.findByText('This is one of the most common passwords: choose one that is harder to guess');
    expect(screen.getByLabelText(/^Password/).getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's message, else the fallback text", async () => {
    mockFetch(() => jsonResponse(409, { success: false, message: 'This email is already registered' }));
    renderPage(<RegisterPage />, { path: '/register' });
    fill(VALID);
    submit();
    expect(await screen.findByText('This email is already registered')).toBeTruthy();

    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    submit();
    expect(await screen.findByText('Registration failed. Please try again.')).toBeTruthy();
  });
});
