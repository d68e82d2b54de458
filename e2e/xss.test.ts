import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath } from './support/browser.ts';
import { serverAndBrowser } from './support/journey.ts';
import { signIn } from './support/screens.ts';
import { adminLogin } from './support/server.ts';

/**
 * Stored XSS: names and descriptions an operator (or a compromised account) saves with markup
 * in them must come back as text on every screen that shows them: the literal text is visible,
 * no element of the markup exists in the page, and none of its script ran.
 */
const markup = (tag: string) => `<img src=x onerror="window.__xss='${tag}'"><b id="xss-${tag}">${tag}</b>`;
const MEMBER = `Mallory ${markup('member')}`;
const SERVICE = `Svc ${markup('service')}`;
const SERVICE_DESCRIPTION = `Desc <script>window.__xss='script'</script>${markup('servicedesc')}`;
const PERMISSION = `perm_${Date.now()}`;
const PERMISSION_DESCRIPTION = `Lets ${markup('permission')} <svg onload="window.__xss='svg'"></svg>`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe.skipIf(!chromiumPath)('stored markup is shown as text in Chromium', () => {
  const journey = serverAndBrowser();
  let page: Page;
  let memberId: number;
  const dialogs: string[] = [];

  const post = async (path: string, body: unknown, token: string) => {
    const res = await fetch(`${journey.server.url}${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const json = (await res.json()) as { user?: { userId: number } };
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  beforeAll(async () => {
    const login = await adminLogin(journey.server.url);
    const { token } = login;
    const member = await post('/api/users/register', { fullName: MEMBER, dob: '1990-01-01', email: 'mallory@test.local', phone: '9876501234' }, token);
    memberId = member.user!.userId;
    await post('/api/permissions/createPermission', { module: 'Settings', name: PERMISSION, description: PERMISSION_DESCRIPTION }, token);
    const form = new FormData();
    form.append('serviceType', 'xss test');
    form.append('serviceName', SERVICE);
    form.append('category', 'Recharge');
    form.append('description', SERVICE_DESCRIPTION);
    form.append('serviceIcon', new Blob([PNG], { type: 'image/png' }), 'icon.png');
    const created = await fetch(`${journey.server.url}/api/services/createService`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(created.status, await created.clone().text()).toBe(201);

    page = await journey.browser.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signIn(page, journey.server.url);
  });

  /** The literal text is on screen, and nothing of the markup became part of the page. */
  async function expectShownAsText(path: string, texts: string[]) {
    await page.goto(`${journey.server.url}${path}`);
    for (const text of texts) await page.getByText(text, { exact: false }).first().waitFor({ timeout: 15_000 });
    expect(await page.locator('[id^="xss-"]').count(), `${path}: injected element`).toBe(0);
    expect(await page.locator('img[src="x"], svg[onload], script:not([src])').count(), `${path}: injected markup`).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss), `${path}: script ran`).toBeUndefined();
    expect(dialogs, `${path}: dialog opened`).toEqual([]);
  }

  it('shows a member name with markup as text on the users list and the member page', async () => {
    await expectShownAsText('/users', [MEMBER]);
    await expectShownAsText(`/users/${memberId}`, [MEMBER]);
  });

  it('shows a service name and description with markup as text on the services screen', async () => {
    await expectShownAsText('/services', [SERVICE]);
    await page.getByRole('button', { name: `Edit ${SERVICE}` }).click();
    await page.getByRole('dialog').waitFor();
    expect(await page.getByRole('dialog').getByRole('textbox', { name: /Service Name/i }).inputValue()).toBe(SERVICE);
    expect(await page.locator('[id^="xss-"]').count()).toBe(0);
  });

  it('shows a permission description with markup as text on the permissions screen', async () => {
    await expectShownAsText('/permissions', [PERMISSION, PERMISSION_DESCRIPTION]);
  });

  it('shows the audit trail of those changes without running any of it', async () => {
    await expectShownAsText('/audit', []);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('[id^="xss-"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  });
});
