import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Database } from '../src/server/db/client.ts';
import { hashPassword } from '../src/server/modules/auth/passwords.ts';
import { hashToken } from '../src/server/lib/tokens.ts';
import { accountWithPermissions } from '../src/server/test/accounts.ts';
import { chromiumPath } from './support/browser.ts';
import { ownDatabaseJourney } from './support/journey.ts';

/**
 * Four eyes on money in the browser (issue 13): a maker (wallet_manage) credits ₹25,000, which is
 * above the default ₹10,000 threshold, so it waits; a checker (money_approve) approves it on the
 * Approvals screen and the balance rises exactly once. The two operators are written into the
 * database while the server is stopped (a PGlite directory has one owner), then sign in normally.
 */
const PASSWORD = 'operator-password-1';
const AMOUNT = 25_000;

interface Operator {
  userId: number;
  email: string;
  token: string;
}

async function operator(database: Database, permissions: string[]): Promise<Operator> {
  const token = await accountWithPermissions(database, permissions);
  const [row] = await database.query<{ user_id: string; email: string }>(
    'select u.user_id::text, u.email from sessions s join users u on u.user_id = s.user_id where s.token_hash = $1', [hashToken(token)]);
  await database.query('update users set password_hash = $1 where user_id = $2', [await hashPassword(PASSWORD), row.user_id]);
  return { userId: Number(row.user_id), email: row.email, token };
}

describe.skipIf(!chromiumPath)('maker → checker journey in Chromium', () => {
  let maker: Operator;
  let checker: Operator;
  let filer: Operator;
  let memberId: number;
  const journey = ownDatabaseJourney('approvals', {}, async (database) => {
    maker = await operator(database, ['wallet_manage', 'wallet_view', 'money_approve']);
    checker = await operator(database, ['money_approve']);
    filer = await operator(database, ['wallet_manage', 'wallet_view']);
    const [member] = await database.query<{ user_id: string }>(
      'select user_id::text from users where not can_sign_in and deleted_at is null order by user_id limit 1');
    memberId = Number(member.user_id);
  });

  const call = async (who: Operator, method: 'GET' | 'POST', url: string, body?: unknown, key?: string) => {
    const res = await fetch(`${journey.server.url}/api${url}`, {
      method,
      headers: {
        authorization: `Bearer ${who.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', body: await res.json() };
  };
  const balance = async () => (await call(maker, 'GET', `/wallet/balance/${memberId}`)).body.data.balance as number;

  async function signIn(page: Page, who: Operator) {
    await page.goto(`${journey.server.url}/signin`);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Access Portal' }).click();
    await page.waitForURL(`${journey.server.url}/`);
  }

  it('a credit above the threshold waits, the maker cannot approve it, the checker approves it and the balance rises once', async () => {
    const before = await balance();
    const key = `approvals-e2e-${Date.now()}`;
    const body = { userId: memberId, amount: AMOUNT, transactionType: 'wallet_recharge' };
    const filed = await call(maker, 'POST', '/wallets/userWalletRecharge', body, key);
    expect(filed.status).toBe(202);
    expect(filed.body.message).toBe('Above the approval threshold of ₹10,000.00: this request awaits approval by a second operator');
    const approvalId = filed.body.data.approvalId as number;
    expect(await balance()).toBe(before);

    // The maker sees their own request with Approve disabled and the reason, and the server refuses it too.
    const makerPage = await journey.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signIn(makerPage, maker);
    await makerPage.getByRole('link', { name: 'Approvals' }).click();
    await makerPage.getByRole('heading', { name: 'Approvals' }).waitFor();
    const own = makerPage.getByRole('button', { name: `Approve request ${approvalId}` });
    expect(await own.getAttribute('aria-disabled')).toBe('true');
    await own.hover();
    await makerPage.getByRole('tooltip', { name: 'You asked for this movement: another operator must approve it' }).waitFor();
    await makerPage.close();
    const selfApproval = await call(maker, 'POST', `/approvals/${approvalId}/approve`, {});
    expect(selfApproval.status).toBe(403);
    expect(selfApproval.body.message).toBe('You asked for this movement yourself: another operator with money_approve must approve it');

    // The checker approves it in the journey.browser.
    const page = await journey.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signIn(page, checker);
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByRole('heading', { name: 'Approvals' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: `#${approvalId}` });
    await row.getByText('₹25,000.00').waitFor();
    await row.getByText('Wallet recharge').waitFor();
    await page.getByRole('button', { name: `Approve request ${approvalId}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve Request' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Approve' }).dblclick();
    await page.getByText('Request approved: Wallet recharged successfully').waitFor();
    await row.waitFor({ state: 'detached' });
    expect(await balance()).toBe(before + AMOUNT);

    // Approving again, or the maker retrying the first request with its key, changes nothing.
    const again = await call(checker, 'POST', `/approvals/${approvalId}/approve`, {});
    expect(again.status).toBe(409);
    const retry = await call(maker, 'POST', '/wallets/userWalletRecharge', body, key);
    expect(retry).toMatchObject({ status: 202, replayed: true, body: { data: { approvalId } } });
    expect(await balance()).toBe(before + AMOUNT);

    // The segmented control's radio input is visually hidden; its label is what a person clicks.
    await page.locator('label').filter({ hasText: /^Approved$/ }).click();
    await page.getByRole('row').filter({ hasText: `#${approvalId}` }).getByText('Approved', { exact: true }).waitFor();
    const history = await call(maker, 'GET', `/users/walletHistory?transactionType=dailyPayout&userId=${memberId}&limit=500`);
    expect(history.body.history.filter((h: { amount: number; transactionType: string }) =>
      h.transactionType === 'wallet_recharge' && h.amount === AMOUNT)).toHaveLength(1);
  });

  it('an operator without money_approve follows their own request under My requests: its state, the checker and the reason (issue 24)', async () => {
    const filed = await call(filer, 'POST', '/wallets/userWalletRecharge', { userId: memberId, amount: 12_500, transactionType: 'wallet_recharge' }, `mine-e2e-${Date.now()}`);
    expect(filed.status).toBe(202);
    const approvalId = filed.body.data.approvalId as number;
    const reason = 'Not this member: check the receipt again';
    expect((await call(checker, 'POST', `/approvals/${approvalId}/reject`, { remarks: reason })).status).toBe(200);
    const checkerName = (await call(filer, 'GET', '/approvals/mine')).body.data[0].checkerName as string;

    const page = await journey.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signIn(page, filer);
    await page.getByRole('link', { name: 'My requests' }).click();
    await page.getByRole('heading', { name: 'My requests' }).waitFor();
    expect(await page.getByText('No access').count()).toBe(0);
    const row = page.getByRole('table', { name: 'My requests' }).getByRole('row').filter({ hasText: `#${approvalId}` });
    await row.getByText('Rejected', { exact: true }).waitFor();
    await row.getByText('₹12,500.00').waitFor();
    await row.getByText(checkerName).waitFor();
    await row.getByText(reason).waitFor();
    // Only their own: the first journey's request (another maker's) is not listed.
    expect(await page.getByRole('table', { name: 'My requests' }).getByRole('row').count()).toBe(2);
    await page.close();
  });
});
