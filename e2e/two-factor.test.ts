import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from './support/browser.ts';
import { serverAndBrowser } from './support/journey.ts';
import { E2E_ADMIN } from './support/server.ts';
import { until } from './support/wait.ts';

const STAFF = { fullName: 'Tara Iyer', email: 'tara.iyer@test.local', password: 'tara-password-1' };

/** The code an authenticator shows `steps` 30-second steps from now. */
const codeAt = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

describe.skipIf(!chromiumPath)('two-factor journey in Chromium', () => {
  const journey = serverAndBrowser();


  async function api<T>(path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
    const res = await fetch(`${journey.server.url}/api${path}`, {
      method: init.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  /** The invitation link the development log mailer printed for this address. */
  async function inviteLinkFor(email: string): Promise<URL> {
    const link = await until(() => {
      const line = journey.server.output().split('\n').find((l) => l.includes('staff invitation mail') && l.includes(email));
      return line && /"inviteLink":"([^"]+)"/.exec(line)?.[1];
    }, () => `no invitation for ${email} in the server output:\n${journey.server.output()}`, 30_000);
    return new URL(link);
  }

  async function signInWithPassword(page: Page) {
    await page.goto(`${journey.server.url}/signin`);
    await page.getByLabel('Email').fill(STAFF.email);
    await page.getByLabel(/^Password/).fill(STAFF.password);
    await page.getByRole('button', { name: 'Access Portal' }).click();
  }

  it('invite → set password → enrol two-factor → sign in with a code (and a recovery code)', async () => {
    // An administrator makes a role that requires two-factor and invites a staff member into it.
    const admin = await api<{ data: { token: string } }>('/Adminlogin', { method: 'POST', body: E2E_ADMIN });
    const token = admin.body.data.token;
    const role = await api<{ data: { roleId: number } }>('/CreateRoles', {
      method: 'POST', token, body: { name: 'Cashier', status: true, twoFactorRequired: true },
    });
    expect(role.status).toBe(201);
    const permissions = await api<{ data: Array<{ permissionId: number; name: string }> }>('/permissions/getPermissions', { token });
    const dashboardView = permissions.body.data.find((p) => p.name === 'dashboard_view')!.permissionId;
    expect((await api('/role-permissions/createPermissionForRole', {
      method: 'POST', token, body: { roleId: role.body.data.roleId, permissionIds: [dashboardView] },
    })).status).toBe(201);
    const invite = await api('/staff/invite', {
      method: 'POST', token, body: { fullName: STAFF.fullName, email: STAFF.email, roleId: role.body.data.roleId },
    });
    expect(invite.status).toBe(201);

    // The invitee opens the mailed link and chooses a password.
    const link = await inviteLinkFor(STAFF.email);
    expect(link.pathname).toBe('/accept-invite');
    const page = await journey.browser.newPage();
    await page.goto(`${journey.server.url}${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'Set your password' }).waitFor();
    await page.getByLabel(/^New password/).fill(STAFF.password);
    await page.getByLabel(/^Confirm password/).fill(STAFF.password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password has been set. You can sign in now.').waitFor();
    await page.getByRole('link', { name: 'Back to sign in' }).click();

    // The role requires two-factor: straight after the password comes enrolment, and nothing else.
    await signInWithPassword(page);
    await page.waitForURL('**/two-factor-setup');
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await page.goto(`${journey.server.url}/`);
    await page.waitForURL('**/two-factor-setup');
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel(/^6-digit code/).fill(codeAt(secret));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    const recoveryCodes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.waitForURL(`${journey.server.url}/`);
    await page.getByRole('region', { name: 'Total Users', exact: true }).waitFor();

    // Next sign-in: password, then the code of the next 30-second step (the current one was used).
    await page.getByRole('button', { name: /logout/i }).click();
    await page.waitForURL('**/signin');
    await signInWithPassword(page);
    await page.getByLabel(/^Two-factor code/).waitFor();
    await page.getByLabel(/^Two-factor code/).fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Invalid two-factor code').waitFor();
    await page.getByLabel(/^Two-factor code/).fill(codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${journey.server.url}/`);
    await page.getByRole('region', { name: 'Total Users', exact: true }).waitFor();

    // The account page shows two-factor on and this session marked; a recovery code signs in elsewhere.
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.waitForURL('**/account');
    await page.getByText('Every sign-in asks for a code from your authenticator app. Recovery codes left: 10.').waitFor();
    await page.getByText('This device').waitFor();
    const other = await journey.browser.newPage();
    await signInWithPassword(other);
    await other.getByLabel(/^Two-factor code/).fill(recoveryCodes[0]);
    await other.getByRole('button', { name: 'Verify' }).click();
    await other.waitForURL(`${journey.server.url}/`);
    await page.reload();
    await page.getByText('Recovery codes left: 9.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: /^Sign out/ }).count()).toBe(2);
    await other.close();
    await page.close();
  });
});
