import type { Locator, Page } from 'playwright-core';
import { E2E_ADMIN } from './server.ts';

export interface Screen {
  /** The route (spec §2); a member page is filled in at run time. */
  path: string;
  /** The page's h1, proof that the screen (not a placeholder) rendered. */
  heading: string | RegExp;
  /** The screenshot's file name, without .png. */
  shot: string;
  /** Opens a modal of the screen, when one is cheap to reach; returns the dialog's name. */
  modal?: { button: string | RegExp; dialog: string | RegExp };
}

/** Before sign-in. */
export const PUBLIC_SCREENS: Screen[] = [
  { path: '/signin', heading: 'Admin Portal', shot: 'signin' },
  { path: '/signup', heading: 'Create your account', shot: 'signup' },
  { path: '/register', heading: 'Create your account', shot: 'register' },
  { path: '/forgot-password', heading: /password/i, shot: 'forgot-password' },
];

/** Inside the layout and its guards. */
export const MAIN_SCREENS: Screen[] = [
  { path: '/', heading: 'Dashboard', shot: 'dashboard' },
  { path: '/users', heading: 'User Management', shot: 'users', modal: { button: 'Add User', dialog: 'Add User' } },
  { path: '/permissions', heading: 'Permissions', shot: 'permissions', modal: { button: 'Add Permission', dialog: /Permission/ } },
  { path: '/roles', heading: 'User Roles', shot: 'roles', modal: { button: 'Add Role', dialog: /Role/ } },
  {
    path: '/role-permissions', heading: 'Role Permissions', shot: 'role-permissions',
    modal: { button: 'Add Role Permission', dialog: /Role Permission/ },
  },
  { path: '/services', heading: 'Services', shot: 'services', modal: { button: 'Add Service', dialog: /Service/ } },
  { path: '/bank', heading: 'Bank Details', shot: 'bank', modal: { button: /^View Bank Details of /, dialog: /Bank Details/ } },
  { path: '/rank', heading: 'Ranks Management', shot: 'rank', modal: { button: 'Add Rank', dialog: /Rank/ } },
  { path: '/membership', heading: 'Membership', shot: 'membership' },
  { path: '/revenue', heading: 'Total Revenue', shot: 'revenue' },
  { path: '/royalty-income', heading: 'Royalty Income', shot: 'royalty-income' },
  { path: '/reward-income', heading: 'Reward Income', shot: 'reward-income' },
  { path: '/daily-payout', heading: 'Daily Payout', shot: 'daily-payout', modal: { button: /^Pay Now/, dialog: 'Process Payment' } },
  { path: '/wallet', heading: 'User Wallet', shot: 'wallet', modal: { button: 'Add User', dialog: 'Add New Transaction' } },
  { path: '/audit', heading: 'Audit Log', shot: 'audit', modal: { button: /^View Details of /, dialog: 'Change details' } },
  { path: '/staff', heading: 'Staff', shot: 'staff', modal: { button: 'Invite staff', dialog: /Invite/ } },
  { path: '/approvals', heading: 'Approvals', shot: 'approvals' },
  { path: '/account', heading: 'Your account', shot: 'account' },
];

/** Sign-in only, no layout (spec §2 test duplicates). */
export const TEST_SCREENS: Screen[] = [
  { path: '/test/users', heading: 'User Management', shot: 'test-users' },
  { path: '/test/api', heading: 'API Connection Test', shot: 'test-api' },
  { path: '/test/permissions', heading: 'Permissions', shot: 'test-permissions' },
  { path: '/test/roles', heading: 'User Roles', shot: 'test-roles' },
  { path: '/test/services', heading: 'Services', shot: 'test-services' },
  { path: '/test/rank', heading: 'Ranks Management', shot: 'test-rank' },
  { path: '/test/bank', heading: 'Bank Details', shot: 'test-bank' },
  {
    path: '/test/membership', heading: 'Membership', shot: 'test-membership',
    modal: { button: /^View Amount History of /, dialog: /./ },
  },
  { path: '/test/membership-test', heading: 'Membership API Test', shot: 'test-membership-test' },
  { path: '/test/revenue', heading: 'Total Revenue', shot: 'test-revenue' },
  { path: '/test/royalty-income', heading: 'Royalty Income', shot: 'test-royalty-income' },
  { path: '/test/reward-income', heading: 'Reward Income', shot: 'test-reward-income' },
  { path: '/test/daily-payout', heading: 'Daily Payout', shot: 'test-daily-payout' },
  { path: '/test/wallet', heading: 'User Wallet', shot: 'test-wallet' },
];

export async function signIn(page: Page, baseUrl: string, account = E2E_ADMIN): Promise<void> {
  await page.goto(`${baseUrl}/signin`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByRole('button', { name: 'Access Portal' }).click();
  await page.waitForURL(`${baseUrl}/`);
}

/** Opens a screen and waits until its heading shows and no data is loading any more. */
export async function openScreen(page: Page, baseUrl: string, screen: Pick<Screen, 'path' | 'heading'>): Promise<void> {
  await page.goto(`${baseUrl}${screen.path}`);
  await page.getByRole('heading', { level: 1, name: screen.heading }).first().waitFor();
  await settled(page);
}

/** No top progress bar, no skeleton, no loader left. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.querySelector('.top-progress, .mantine-Skeleton-root[data-visible], [role="status"] .mantine-Loader-root'),
    undefined,
    { timeout: 15_000 },
  );
  await transitionsDone(page);
}

/**
 * Every CSS transition and finite animation on the page has ended (spinners and other endless
 * animations aside), and a frame has been painted since: what a reader, axe or a screenshot sees
 * is the final state, not a modal half faded in. `within`, when given, must also be fully opaque
 * (a Mantine modal is in the page at opacity 0 before its transition starts).
 */
export async function transitionsDone(page: Page, within?: Locator): Promise<void> {
  if (within) await within.evaluate(async (el) => {
    while (getComputedStyle(el).opacity !== '1') await new Promise(requestAnimationFrame);
  });
  // No named functions inside: the screenshots script runs under tsx, whose name-keeping helper
  // (__name) does not exist in the page.
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    await new Promise(requestAnimationFrame);
    await new Promise(requestAnimationFrame);
  });
}

/** A member with direct referrals who is one themselves: the genealogy and upline both have something to show. */
export async function memberWithNetwork(baseUrl: string, token: string): Promise<{ userId: number; fullName: string; referredBy: number }> {
  const res = await fetch(`${baseUrl}/api/users/getAllusers?level=3&limit=1`, { headers: { authorization: `Bearer ${token}` } });
  const { users } = (await res.json()) as { users: { referredBy: number }[] };
  const parentRes = await fetch(`${baseUrl}/api/users/updateByUserId/${users[0].referredBy}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { user } = (await parentRes.json()) as { user: { userId: number; fullName: string; referredBy: number } };
  return user;
}
