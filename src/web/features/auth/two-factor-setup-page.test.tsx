import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, renderRoutes, signIn, TEST_USER } from '../../test-utils';
import TwoFactorSetupPage from './two-factor-setup-page';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = ['abcde-fghij', 'klmno-pqrst', 'uvwxy-z2345', 'aaaaa-bbbbb', 'ccccc-ddddd', 'eeeee-fffff', 'ggggg-hhhhh', 'iiiii-jjjjj', 'kkkkk-lllll', 'mmmmm-nnnnn'];

function enrolling() {
  const user = { ...signIn([]), twoFactorSetupRequired: true };
  localStorage.setItem('user', JSON.stringify(user));
  let confirmed = false;
  const fetchMock = mockFetch((path, init) => {
    if (path === '/account/two-factor/setup') {
      return jsonResponse(200, { success: true, data: { secret: SECRET, otpauthUrl: `otpauth://totp/Backoffice:a?secret=${SECRET}`, qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=' } });
    }
    if (path === '/account/two-factor/confirm') {
      const { code } = JSON.parse(String(init.body)) as { code: string };
      if (code !== '123456') return jsonResponse(400, { success: false, message: 'Invalid two-factor code' });
      confirmed = true;
      return jsonResponse(200, { success: true, message: 'Two-factor sign-in is on', data: { recoveryCodes: CODES } });
    }
    // /users/me: the session turns full once enrolment is confirmed.
    return jsonResponse(200, { success: true, data: { ...TEST_USER, twoFactorEnabled: confirmed, twoFactorSetupRequired: !confirmed } });
  });
  return fetchMock;
}

describe('TwoFactorSetupPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the QR code and the key, refuses a wrong code, then shows the recovery codes once and continues', async () => {
    const fetchMock = enrolling();
    renderPage(<TwoFactorSetupPage />, { path: '/two-factor-setup' });
    expect(screen.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeTruthy();
    expect(screen.getByText(/Your role requires a code from your phone/)).toBeTruthy();

    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(screen.getByTestId('two-factor-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/setup'))).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/^6-digit code/), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid two-factor code');

    fireEvent.change(screen.getByLabelText(/^6-digit code/), { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    expect(await screen.findByRole('heading', { name: 'Save your recovery codes' })).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Recovery codes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(list.textContent).toContain('abcde-fghij');

    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/');
    await waitFor(() => expect(JSON.parse(localStorage.getItem('user') ?? '{}').twoFactorSetupRequired).toBe(false));
  });

  it('says so, with the way to the account page, when two-factor is already on', async () => {
    signIn();
    mockFetch((path) =>
      path === '/account/two-factor/setup'
        ? jsonResponse(409, { success: false, message: 'Two-factor sign-in is already on. Turn it off first to set it up with another device.' })
        : jsonResponse(200, { success: true, data: TEST_USER }),
    );
    renderPage(<TwoFactorSetupPage />, { path: '/two-factor-setup' });
    expect((await screen.findByRole('alert')).textContent).toContain('Two-factor sign-in is already on.');
    expect(screen.getByRole('link', { name: 'Go to your account' }).getAttribute('href')).toBe('/account');
  });

  it('issue 24: goes on to the link opened before sign-in (its state), not the dashboard', async () => {
    enrolling();
    const { router } = renderRoutes([{ path: '/two-factor-setup', element: <TwoFactorSetupPage /> }, { path: '*', element: null }], '/two-factor-setup');
    await router.navigate('/two-factor-setup', { replace: true, state: { from: '/users?status=inactive' } });
    await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    fireEvent.change(screen.getByLabelText(/^6-digit code/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    fireEvent.click(await screen.findByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/users?status=inactive'));
  });
});
