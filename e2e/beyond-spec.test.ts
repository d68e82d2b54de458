import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumPath } from './support/browser.ts';
import { serverAndBrowser } from './support/journey.ts';
import { openScreen, settled, signIn, TEST_SCREENS } from './support/screens.ts';

interface ApiUser {
  userId: number;
  fullName: string;
}

describe.skipIf(!chromiumPath)('beyond the spec in Chromium: audit log, genealogy, search, charts, test routes, dark mode', () => {
  const journey = serverAndBrowser();
  let context: BrowserContext;
  let page: Page;
  let token: string;

  const api = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const res = await fetch(`${journey.server.url}/api${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    expect(res.status, path).toBeLessThan(300);
    return (await res.json()) as T;
  };
  let phones = 0;
  const addMember = async (fullName: string, referrer?: number): Promise<ApiUser> => {
    phones += 1;
    const { user } = await api<{ user: ApiUser }>('/users/register', {
      method: 'POST',
      body: {
        fullName, dob: '1990-05-05', email: `beyond${phones}@test.local`, phone: `95${String(phones).padStart(8, '0')}`,
        ...(referrer ? { referralCode: String(referrer) } : {}),
      },
    });
    return user;
  };
  const colorScheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');

  beforeAll(async () => {
    context = await journey.browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    page = await context.newPage();
    await signIn(page, journey.server.url);
    token = (await page.evaluate(() => localStorage.getItem('authToken')))!;
  });

  it('audit log: a change made on a screen is listed with before and after; the filters narrow the list', async () => {
    await openScreen(page, journey.server.url, { path: '/rank', heading: 'Ranks Management' });
    await page.getByRole('button', { name: 'Add Rank' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add Rank' });
    await dialog.getByLabel(/Rank Name/).fill('Audit Emerald');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Edit Audit Emerald' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Rank' });
    await dialog.getByLabel(/Rank Name/).fill('Audit Sapphire');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await openScreen(page, journey.server.url, { path: '/audit', heading: 'Audit Log' });
    await page.getByRole('combobox', { name: 'Entity' }).click();
    await page.getByRole('option', { name: 'rank', exact: true }).click();
    await page.getByLabel('Action', { exact: true }).fill('update');
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.getByRole('button', { name: 'Filter' }).click();
    await settled(page);
    const rows = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr');
    await expect(rows.count()).resolves.toBe(1);
    const cells = await rows.first().locator('td').allTextContents();
    expect(cells[2]).toBe('update');
    expect(cells[3]).toBe('rank');

    await rows.first().getByRole('button', { name: /^View Details of update rank/ }).click();
    const details = page.getByRole('dialog', { name: 'Change details' });
    await details.locator('pre').nth(1).waitFor();
    const [before, after] = await details.locator('pre').allInnerTexts();
    expect(before).toContain('"Audit Emerald"');
    expect(after).toContain('"Audit Sapphire"');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });

    // The CSV export carries the same filtered rows, before and after included.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.trim().split('\n')).toHaveLength(2);
    expect(csv).toContain('Audit Emerald');
    expect(csv).toContain('Audit Sapphire');

    // The create is listed under its own action.
    await page.getByLabel('Action', { exact: true }).fill('create');
    await page.getByRole('button', { name: 'Filter' }).click();
    await settled(page);
    await expect(rows.count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Clear' }).click();
    await settled(page);
    expect(await rows.count()).toBeGreaterThan(1);
  });

  it('genealogy: opened from the users table; expands level by level with counts, loads more, and walks the upline', async () => {
    // A member with 21 direct referrals (one over a page), one of whom has a referral of their own.
    const root = await addMember('Gena Rootwell');
    const children: ApiUser[] = [];
    for (let i = 1; i <= 21; i++) children.push(await addMember(`Gena Child ${String(i).padStart(2, '0')}`, root.userId));
    const grandchild = await addMember('Gena Grandchild', children[0].userId);

    await openScreen(page, journey.server.url, { path: '/users', heading: 'User Management' });
    await page.getByRole('table', { name: 'Users' }).getByRole('link', { name: `Open ${grandchild.fullName}` }).click();
    await page.waitForURL(`${journey.server.url}/users/${grandchild.userId}`);
    await page.getByRole('heading', { level: 1, name: grandchild.fullName }).waitFor();

    // Upline: root → child 01 → the member.
    const upline = page.getByRole('navigation', { name: 'Upline chain' });
    // The chain loads after the heading: wait for it rather than read an empty one (two journeys share the machine).
    await expect.poll(() => upline.getByRole('link').allInnerTexts(), { timeout: 30_000 })
      .toEqual([`${root.fullName} (L1)`, `${children[0].fullName} (L2)`]);
    await upline.getByRole('link', { name: new RegExp(root.fullName) }).click();
    await page.waitForURL(`${journey.server.url}/users/${root.userId}`);
    await page.getByRole('heading', { level: 1, name: root.fullName }).waitFor();
    await settled(page);
    await page.getByText('Network: 22 members').waitFor();
    await page.getByText('Level 1 below: 21').waitFor();
    await page.getByText('Level 2 below: 1').waitFor();

    const tree = page.getByRole('list', { name: `Genealogy of ${root.fullName}` });
    await tree.getByText('Showing 20 of 21').waitFor();
    await expect(tree.getByRole('link', { name: /^Gena Child/ }).count()).resolves.toBe(20);
    await tree.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => tree.getByRole('link', { name: /^Gena Child/ }).count()).toBe(21);
    expect(await tree.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // Only a member with referrals can be expanded; expanding fetches the next level.
    expect(await tree.getByRole('button', { name: `Expand ${children[1].fullName}` }).count()).toBe(0);
    const expand = tree.getByRole('button', { name: `Expand ${children[0].fullName}` });
    expect(await expand.getAttribute('aria-expanded')).toBe('false');
    await expand.click();
    await tree.getByRole('link', { name: grandchild.fullName }).waitFor();
    expect(await tree.getByRole('button', { name: `Collapse ${children[0].fullName}` }).getAttribute('aria-expanded')).toBe('true');
    await tree.getByRole('button', { name: `Collapse ${children[0].fullName}` }).click();
    expect(await tree.getByRole('link', { name: grandchild.fullName }).count()).toBe(0);
  });

  it('global search: finds a member by name or user id, moves with the arrow keys, opens with Enter, closes on Escape', async () => {
    const [first, second] = [await addMember('Quorra Searchable'), await addMember('Quorra Findable')];
    await openScreen(page, journey.server.url, { path: '/', heading: 'Dashboard' });
    const search = page.getByRole('combobox', { name: 'Search members' });
    const listbox = page.getByRole('listbox', { name: 'Members found' });

    await search.fill('quorra');
    await expect.poll(() => listbox.getByRole('option').count()).toBe(2);
    await page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'hidden' });
    expect(await search.getAttribute('aria-expanded')).toBe('false');

    await search.press('ArrowDown');
    await listbox.waitFor();
    const options = await listbox.getByRole('option').allInnerTexts();
    expect(options.every((o) => o.includes('Quorra'))).toBe(true);
    const target = options[1].includes('Findable') ? second : first;
    await search.press('ArrowDown');
    expect(await search.getAttribute('aria-activedescendant')).toBe(await listbox.getByRole('option').nth(1).getAttribute('id'));
    await search.press('Enter');
    await page.waitForURL(`${journey.server.url}/users/${target.userId}`);
    await page.getByRole('heading', { level: 1, name: target.fullName }).waitFor();
    expect(await search.inputValue()).toBe('');

    // A user id, and Enter with nothing highlighted opens the first result.
    await search.fill(String(first.userId));
    // The 'quorra' answer also held this member: wait for the user id's own answer (without the other Quorra) before Enter.
    await expect.poll(() => listbox.getByRole('option', { name: new RegExp(second.fullName) }).count(), { timeout: 30_000 }).toBe(0);
    await listbox.getByRole('option', { name: new RegExp(first.fullName) }).waitFor();
    await search.press('Enter');
    await page.waitForURL(`${journey.server.url}/users/${first.userId}`);

    await search.fill('zzqx-nobody');
    await page.getByText('No members found').waitFor();
  });

  it('dashboard: the three charts of the last 30 days render from the database', async () => {
    await openScreen(page, journey.server.url, { path: '/', heading: 'Dashboard' });
    for (const title of ['New members per day', 'Revenue per day', 'Payouts: success vs failure']) {
      const chart = page.getByRole('region', { name: title });
      await chart.locator('svg.recharts-surface').first().waitFor();
      expect(await chart.locator('.recharts-bar-rectangle, .recharts-area-area, .recharts-curve').count(), title).toBeGreaterThan(0);
    }
  });

  it('/test/api connects; every /test/* route renders its screen without the layout', async () => {
    await openScreen(page, journey.server.url, { path: '/test/api', heading: 'API Connection Test' });
    await page.getByText('Connected', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Retry Connection' }).click();
    await page.getByText('Connected', { exact: true }).waitFor();

    for (const screen of TEST_SCREENS) {
      await openScreen(page, journey.server.url, screen);
      expect(await page.getByRole('button', { name: 'Logout' }).count(), screen.path).toBe(0);
      expect(await page.getByRole('navigation', { name: /sidebar|main/i }).count(), screen.path).toBe(0);
      expect(await page.getByText(/coming soon/i).count(), screen.path).toBe(0);
    }
  });

  it('dark mode follows the system, the header toggle flips it, and the choice is kept', async () => {
    await openScreen(page, journey.server.url, { path: '/', heading: 'Dashboard' });
    expect(await colorScheme()).toBe('light');
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    expect(await colorScheme()).toBe('dark');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await colorScheme()).toBe('dark');
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    expect(await colorScheme()).toBe('light');

    const fresh = await journey.browser.newContext({ colorScheme: 'dark' });
    const dark = await fresh.newPage();
    await dark.goto(`${journey.server.url}/signin`);
    await dark.getByRole('heading', { name: 'Admin Portal' }).waitFor();
    // The pre-rendered page is drawn before the panel hydrates; the attribute is the hydrated panel's.
    await expect.poll(() => dark.locator('html').getAttribute('data-mantine-color-scheme'), { timeout: 30_000 }).toBe('dark');
    await fresh.close();
  });

  it('shows the top progress bar while data loads', async () => {
    await openScreen(page, journey.server.url, { path: '/', heading: 'Dashboard' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/dashboard/charts*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('link', { name: 'Users' }).click();
    // The users page first: clicked while its code still loads, Dashboard would cancel that
    // navigation and stay mounted, with nothing to fetch (it failed so once in CI).
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const bar = page.getByRole('progressbar', { name: 'Loading' });
    await bar.waitFor();
    release();
    await bar.waitFor({ state: 'hidden' });
    await page.unroute('**/api/dashboard/charts*');
  });
  it('issue 15: the audit log sorted by a column and filtered keeps the same view after a reload', async () => {
    await openScreen(page, journey.server.url, { path: '/audit', heading: 'Audit Log' });
    const table = page.getByRole('table', { name: 'Audit log' });
    await table.getByRole('button', { name: 'Action', exact: true }).click();
    await page.getByRole('combobox', { name: 'Entity' }).click();
    await page.getByRole('option', { name: 'rank', exact: true }).click();
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/sort=action/);
    await page.waitForURL(/entity=rank/);
    await settled(page);
    const actions = () => table.locator('tbody tr td:nth-child(3)').allTextContents();
    const shown = await actions();
    expect(shown.length).toBeGreaterThan(1);
    expect(shown).toEqual([...shown].sort());
    const address = page.url();

    await page.reload();
    await page.getByRole('heading', { name: 'Audit Log' }).waitFor();
    await settled(page);
    expect(page.url()).toBe(address);
    await expect(page.getByRole('combobox', { name: 'Entity' }).inputValue()).resolves.toBe('rank');
    await expect(table.getByRole('columnheader', { name: 'Action', exact: true }).getAttribute('aria-sort')).resolves.toBe('ascending');
    expect(await actions()).toEqual(shown);
  });
});
