/**
 * npm run screenshots: starts the real server on a fresh database with demo data, signs in with
 * Chromium and saves a PNG of every screen to docs/screenshots/ (the README shows them).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { chromiumPath, launchBrowser } from '../e2e/support/browser.ts';
import { startServer } from '../e2e/support/server.ts';
import {
  MAIN_SCREENS, memberWithNetwork, openScreen, PUBLIC_SCREENS, settled, signIn, TEST_SCREENS, transitionsDone,
} from '../e2e/support/screens.ts';

const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');
/** The test duplicates that are screens of their own; the others repeat a main screen without the layout. */
const DISTINCT_TEST_SCREENS = new Set(['/test/api', '/test/membership', '/test/membership-test']);

async function shoot(page: Page, name: string, dialog?: string) {
  await page.mouse.move(0, 899);
  await transitionsDone(page, dialog ? page.getByRole('dialog', { name: dialog }) : undefined);
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  console.log(`  docs/screenshots/${name}.png`);
}

/** A change for the audit log to show: a rank is created, then renamed. */
async function renameRank(baseUrl: string, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${baseUrl}/api/ranks/createRank`, { method: 'POST', headers, body: JSON.stringify({ name: 'Emerald', status: true }) });
  const { data } = (await created.json()) as { data: { rankId: number } };
  await fetch(`${baseUrl}/api/ranks/updateRank/${data.rankId}`, { method: 'PUT', headers, body: JSON.stringify({ name: 'Emerald Elite', status: true }) });
}

/** A credit above the approval threshold, so the Approvals queue has a request to show. */
async function creditAboveThreshold(baseUrl: string, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const res = await fetch(`${baseUrl}/api/users/getAllusers?level=2&limit=1`, { headers });
  const { users } = (await res.json()) as { users: { userId: number }[] };
  const credit = await fetch(`${baseUrl}/api/wallets/userWalletRecharge`, {
    method: 'POST', headers, body: JSON.stringify({ userId: users[0].userId, amount: 25_000, transactionType: 'wallet_recharge' }),
  });
  if (credit.status !== 202) throw new Error(`expected a credit awaiting approval, got ${credit.status}`);
}

/** A member of the demo network holding an engine membership that is still earning (its card has numbers to show). */
async function memberWithMembership(baseUrl: string, token: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const res = await fetch(`${baseUrl}/api/users/getAllusers?level=2&limit=50`, { headers });
  const { users } = (await res.json()) as { users: { userId: number }[] };
  for (const { userId } of users) {
    const got = await fetch(`${baseUrl}/api/income/memberships/${userId}`, { headers });
    const { data } = (await got.json()) as { data: { status: string; earned: number } | null };
    if (data?.status === 'active' && data.earned > 0) return userId;
  }
  throw new Error('no demo member holds an earning membership');
}

async function main() {
  if (!chromiumPath) throw new Error('No Chromium found: install Debian\'s "chromium" package or set CHROMIUM_PATH');
  fs.mkdirSync(OUT, { recursive: true });
  const server = await startServer({ env: { SEED_MEMBERS: '300' } });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();

    // /register is the same screen as /signup.
    for (const screen of PUBLIC_SCREENS.filter((s) => s.path !== '/register')) {
      await openScreen(page, server.url, screen);
      await shoot(page, screen.shot);
    }

    await signIn(page, server.url);
    const token = (await page.evaluate(() => localStorage.getItem('authToken')))!;
    await creditAboveThreshold(server.url, token);
    for (const screen of MAIN_SCREENS) {
      await openScreen(page, server.url, screen);
      await shoot(page, screen.shot);
    }
    for (const screen of TEST_SCREENS.filter((s) => DISTINCT_TEST_SCREENS.has(s.path))) {
      await openScreen(page, server.url, screen);
      if (screen.path === '/test/api') await page.getByText('Connected', { exact: true }).waitFor();
      await shoot(page, screen.shot);
    }

    // Lists as an operator leaves them (issue 15): sorted by a column, filtered, all in the address.
    await openScreen(page, server.url, { path: '/users?sort=fullName&level=3', heading: 'User Management' });
    await shoot(page, 'users-sorted');
    await openScreen(page, server.url, { path: '/wallet?type=wallet_recharge&min=1000&sort=-amount', heading: 'User Wallet' });
    await shoot(page, 'wallet-filtered');

    // Dialogs worth seeing: adding a member, inviting staff, and one change of the audit log with its before and after.
    await renameRank(server.url, token);
    await openScreen(page, server.url, MAIN_SCREENS[1]);
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('dialog', { name: 'Add User' }).waitFor();
    await shoot(page, 'users-add', 'Add User');
    await openScreen(page, server.url, { path: '/audit', heading: 'Audit Log' });
    await page.getByRole('button', { name: /^View Details of / }).first().click();
    await page.getByRole('dialog', { name: 'Change details' }).waitFor();
    await shoot(page, 'audit-details', 'Change details');
    await openScreen(page, server.url, { path: '/staff', heading: 'Staff' });
    await page.getByRole('button', { name: 'Invite staff' }).click();
    await page.getByRole('dialog', { name: 'Invite staff' }).waitFor();
    await shoot(page, 'staff-invite', 'Invite staff');
    await page.goto(`${server.url}/two-factor-setup`);
    await page.getByRole('img', { name: /QR/i }).waitFor();
    await shoot(page, 'two-factor-setup');

    // A member's page with two levels of their genealogy open, then the header search.
    const member = await memberWithNetwork(server.url, token);
    await openScreen(page, server.url, { path: `/users/${member.referredBy}`, heading: /./ });
    const expand = page.getByRole('button', { name: /^Expand / });
    await expand.first().click();
    await settled(page);
    await expand.first().click();
    await settled(page);
    await shoot(page, 'member');
    await page.getByRole('combobox', { name: 'Search members' }).fill('ana');
    await page.getByRole('listbox', { name: 'Members found' }).getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await shoot(page, 'search');

    // The income engine (issue 16): plans, settings, the runs with one run's details open, a
    // member's page with their membership card, and the activation form. The demo data made its
    // payouts, royalty and rewards by running the engine, so the runs list is full.
    await openScreen(page, server.url, { path: '/income/plans', heading: 'Membership Plans' });
    await shoot(page, 'income-plans');
    await openScreen(page, server.url, { path: '/income/settings', heading: 'Income Settings' });
    await shoot(page, 'income-settings');
    await openScreen(page, server.url, { path: '/income/runs?kind=daily_payout', heading: 'Income Runs' });
    await shoot(page, 'income-runs');
    const details = page.getByRole('button', { name: /^Details of run \d+$/ }).first();
    const runName = `Run #${(await details.getAttribute('aria-label'))!.replace(/\D+/g, '')}`;
    await details.click();
    await page.getByRole('dialog', { name: runName }).getByRole('region', { name: 'Totals' }).waitFor();
    await settled(page);
    await shoot(page, 'income-run-details', runName);
    const holder = await memberWithMembership(server.url, token);
    await openScreen(page, server.url, { path: `/users/${holder}`, heading: /./ });
    const card = page.getByRole('region', { name: 'Membership', exact: true });
    await card.getByText('Days earned').waitFor();
    await card.scrollIntoViewIfNeeded();
    await settled(page);
    await shoot(page, 'member-membership');
    await openScreen(page, server.url, { path: '/membership', heading: 'Membership' });
    await page.getByRole('button', { name: 'Activate Membership' }).click();
    const activation = page.getByRole('dialog', { name: 'Activate Membership' });
    await activation.getByText('Paid outside (cash, bank transfer, UPI)').click();
    await activation.getByLabel('Method').waitFor();
    await settled(page);
    await shoot(page, 'membership-activate', 'Activate Membership');
    await page.keyboard.press('Escape');

    await page.emulateMedia({ colorScheme: 'dark' });
    await openScreen(page, server.url, MAIN_SCREENS[0]);
    await shoot(page, 'dashboard-dark');
  } finally {
    await browser.close();
    await server.cleanUp();
  }
}

await main();
