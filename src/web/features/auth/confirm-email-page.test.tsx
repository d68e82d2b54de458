import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage } from '../../test-utils';
import ConfirmEmailPage from './confirm-email-page';

describe('ConfirmEmailPage (issue 22)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('confirms the address with the link\u2019s token on a click, then offers sign-in', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true, message: 'Your email address is confirmed. You can sign in now.' }));
    renderPage(<ConfirmEmailPage />, { path: '/confirm-email', url: '/confirm-email?token=confirm-token-123' });
    expect(screen.getByRole('heading', { name: 'Confirm your email address' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm email address' }));
    expect(await screen.findByText('Your email address is confirmed. You can sign in now.')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/users/confirm-email');
    expect(JSON.parse(String(init?.body))).toEqual({ token: 'confirm-token-123' });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/signin');
  });

  it('shows the server\u2019s refusal of a used or expired link', async () => {
    mockFetch(() => jsonResponse(400, { success: false, message: 'This confirmation link is invalid or has expired.' }));
    renderPage(<ConfirmEmailPage />, { path: '/confirm-email', url: '/confirm-email?token=confirm-token-123' });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm email address' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This confirmation link is invalid or has expired.');
  });

  it('says a link without a token is incomplete and sends nothing', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderPage(<ConfirmEmailPage />, { path: '/confirm-email' });
    expect(screen.getByRole('alert').textContent).toMatch(/This confirmation link is invalid or incomplete/);
    expect((screen.getByRole('button', { name: 'Confirm email address' }) as HTMLButtonElement).disabled).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
