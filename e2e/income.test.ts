import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { postEntry } from '../src/server/db/books.ts';
import { hashPassword } from '../src/server/modules/auth/passwords.ts';
import { insertUser } from '../src/server/modules/users/users.repository.ts';
import { hashToken } from '../src/server/lib/tokens.ts';
import { accountWithPermissions } from '../src/server/test/accounts.ts';
import { chromiumPath } from './support/browser.ts';
import { ownDatabaseJourney } from './support/journey.ts';
import { openScreen, settled, signIn } from './support/screens.ts';
import { adminLogin } from './support/server.ts';
import { until } from './support/wait.ts';

/**
 * The income engine in the browser (issue 16, "Done when"), on a fresh install (SEED_MEMBERS=0)
 * with a ₹500 approval threshold: the operator adds a plan on Membership Plans and saves the
 * income settings (pay to bank) — each waits until a second operator approves it on Approvals,
 * where the plan's projected cost is shown (issue 22) — activates two members — one from their member page (paid from
 * the wallet), one from the Membership screen (paid outside, above the threshold: it waits, and a
 * second operator approves it on Approvals) — previews and runs the day on Income Runs until the
 * progress reaches Completed, sees the run's payouts on Daily Payout (a Success, and a Failure for
 * the member without a bank account), the fees on Revenue and the dashboard, pays the Failure with
 * Pay Now, and reverses the run (it turns Reversed, the balances go back); running the reversed day
 * again waits for the second operator too, whose approval pays it once more.
 *
 * A membership starts earning the day after its activation: between the activations and the run
 * the server is stopped and the memberships moved back one day ("the next day"), then started again.
 */
const PASSWORD = 'checker-password-1';
const T = 60_000; // generous: a busy 2-core machine

const istToday = () => new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);
const wireDay = (iso: string) => iso.split('-').reverse().join('-');

describe.skipIf(!chromiumPath)('the income engine journey in Chromium', () => {
  let checker: { email: string };
  const wallet = { userId: 0, fullName: 'Wallet Buyer' };
  const outside = { userId: 0, fullName: 'Outside Buyer' };
  const journey = ownDatabaseJourney('income', { SEED_MEMBERS: '0', APPROVAL_THRESHOLD: '500' }, async (database) => {
    // The checker: a second operator with money_approve, who signs in with a password.
    const token = await accountWithPermissions(database, ['money_approve']);
    const [row] = await database.query<{ user_id: string; email: string }>(
      'select u.user_id::text, u.email from sessions s join users u on u.user_id = s.user_id where s.token_hash = $1', [hashToken(token)]);
    await database.query('update users set password_hash = $1 where user_id = $2', [await hashPassword(PASSWORD), row.user_id]);
    checker = { email: row.email };
    // Two members: one with ₹1,500 in the wallet and a primary bank account, one with neither.
    for (const [m, phone] of [[wallet, '9876500001'], [outside, '9876500002']] as const) {
      const user = await insertUser(database.db, { fullName: m.fullName, email: `${phone}@journey.test`, phone, level: 1 });
      m.userId = user.userId;
    }
    await postEntry(database.db, { userId: wallet.userId, kind: 'wallet_recharge', amountPaise: 150_000, description: 'Journey funds' });
    await database.query(`insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, is_primary)
      values ($1, $2, '123456789012', 'SBIN0000001', 'SBI', true)`, [wallet.userId, wallet.fullName]);
  });
  const api = async <T>(url: string): Promise<T> => {
    const { token } = await adminLogin(journey.server.url);
    const res = await fetch(`${journey.server.url}/api${url}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const balance = async (userId: number) => (await api<{ data: { balance: number } }>(`/wallet/balance/${userId}`)).data.balance;
  /** What waits on Bank Transfers to be sent (pay to bank: a payout goes on from the wallet to the member's bank). */
  const toSend = async () => {
    const { data } = await api<{ data: { count: number; total: number; notGatherableCount: number; notGatherableTotal: number } }>('/bank-transfers/gatherable');
    return { count: data.count, total: data.total, withoutAccount: data.notGatherableCount, withoutAccountTotal: data.notGatherableTotal };
  };

  /** The checker approves the pending request of `kind` on Approvals; `shows` are texts the dialog must show first. */
  async function approveOnScreen(kind: string, answer: RegExp, shows: (string | RegExp)[] = []) {
    const checkerPage = await journey.browser.newPage({ viewport: { width: 1400, height: 900 } });
    checkerPage.setDefaultTimeout(T);
    await signIn(checkerPage, journey.server.url, { email: checker.email, password: PASSWORD });
    await openScreen(checkerPage, journey.server.url, { path: '/approvals', heading: 'Approvals' });
    const request = checkerPage.getByRole('row').filter({ hasText: kind });
    await request.getByRole('button', { name: /^Approve request \d+$/ }).click();
    const dialog = checkerPage.getByRole('dialog', { name: 'Approve Request' });
    for (const text of shows) await dialog.getByText(text).first().waitFor();
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await checkerPage.getByText(answer).waitFor();
    await checkerPage.close();
  }

  async function adminPage(): Promise<Page> {
    const page = await journey.browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(T);
    await signIn(page, journey.server.url);
    return page;
  }

  it('sets a plan and the settings, activates two members (one approved by a second operator), runs a day, pays a failure and reverses the run', async () => {
    let page = await adminPage();

    // Membership Plans → Add Plan: ₹1,000, 1.5 % a day (₹15), 30 days, cap ₹2,000.
    await page.getByRole('link', { name: 'Membership Plans' }).click();
    await page.getByRole('heading', { level: 1, name: 'Membership Plans' }).waitFor();
    await page.getByRole('button', { name: 'Add Plan' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add Plan' });
    await dialog.getByLabel('Plan Name').fill('Journey Plan');
    await dialog.getByLabel('Price (₹)').fill('1000');
    await dialog.getByLabel('Total payout cap (₹)').fill('2000');
    await dialog.getByLabel('Daily payout (% of the price)').fill('1.5');
    await dialog.getByLabel('Duration (days)').fill('30');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // A plan makes money: it waits for a second operator, who sees its terms and projected cost.
    await page.getByText(/^New plan Journey Plan awaits approval by a second operator with money_approve \(projected cost over its first 30 days: ₹[\d,.]+\)$/).waitFor();
    await approveOnScreen('New membership plan', /^Request approved: Plan Journey Plan created: in force from/, [
      /^Projected cost over the first 30 days: ₹[\d,.]+$/, 'Level income on one sale (every level filled): ₹240.00', '₹2,000.00',
    ]);
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Journey Plan' }).first().waitFor();

    // Income Settings: TDS 5 %, admin charge 2.5 %, pay to the bank account (the first save is in force today).
    await page.getByRole('link', { name: 'Income Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Income Settings' }).waitFor();
    await settled(page);
    await page.getByLabel('TDS (%)').fill('5');
    // Issue 25: the journey's members have no PAN; their TDS is the plan's 5 %, not the 206AA default.
    await page.getByLabel('TDS without PAN (%)').fill('5');
    await page.getByLabel('Admin charge (%)').fill('2.5');
    await page.getByRole('combobox', { name: 'Pay to' }).click();
    await page.getByRole('option', { name: 'Bank account' }).click();
    // Every day is a business day here, so the journey runs on a Saturday as on a Monday.
    await page.getByLabel('Pay on weekends').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(new RegExp(`^The income settings from ${wireDay(istToday())} await approval by a second operator`)).waitFor();
    await approveOnScreen('Income settings change', new RegExp(`^Request approved: Income settings saved: in force from ${wireDay(istToday())}`), [
      /^Projected cost over the first 30 days: /,
    ]);

    // The member page: Activate Membership, paid from the wallet.
    await page.goto(`${journey.server.url}/users/${wallet.userId}`);
    await page.getByRole('heading', { level: 1, name: wallet.fullName }).waitFor();
    await page.getByRole('button', { name: 'Activate Membership' }).click();
    dialog = page.getByRole('dialog', { name: 'Activate Membership' });
    await dialog.getByRole('combobox', { name: 'Plan' }).click();
    await page.getByRole('option', { name: /^Journey Plan/ }).click();
    await dialog.getByRole('button', { name: 'Activate' }).click();
    await page.getByText(new RegExp(`^Membership Journey Plan activated for member ${wallet.userId}`)).waitFor();
    await dialog.waitFor({ state: 'detached' });
    // The membership card: nothing earned yet (an empty bar is in the page, zero pixels wide).
    await page.getByRole('progressbar', { name: 'Earned ₹0.00 of the ₹2,000.00 cap' }).waitFor({ state: 'attached' });
    expect(await balance(wallet.userId)).toBe(500);

    // The Membership screen: Activate Membership paid outside, ₹1,000 > the ₹500 threshold: it waits.
    await openScreen(page, journey.server.url, { path: '/membership', heading: 'Membership' });
    await page.getByRole('button', { name: 'Activate Membership' }).click();
    dialog = page.getByRole('dialog', { name: 'Activate Membership' });
    await dialog.getByRole('combobox', { name: 'Member' }).fill(outside.fullName);
    await page.getByRole('option', { name: new RegExp(`\\(ID: ${outside.userId}\\)`) }).click();
    await dialog.getByRole('combobox', { name: 'Plan' }).click();
    await page.getByRole('option', { name: /^Journey Plan/ }).click();
    await dialog.getByText('Paid outside (cash, bank transfer, UPI)').click();
    await dialog.getByLabel('Method').fill('UPI');
    await dialog.getByLabel('Reference').fill('UTR-JOURNEY-1');
    await dialog.getByRole('button', { name: 'Activate' }).click();
    // Judged by what it can pay (its ₹2,000 cap), not by its price.
    await page.getByText('Paid outside the wallet, plan Journey Plan can pay up to ₹2,000.00 (its cap), above the approval threshold of ₹500.00: this activation awaits approval by a second operator').waitFor();
    expect((await api<{ data: unknown }>(`/income/memberships/${outside.userId}`)).data).toBeNull();

    // The second operator approves it on Approvals.
    const checkerPage = await journey.browser.newPage({ viewport: { width: 1400, height: 900 } });
    checkerPage.setDefaultTimeout(T);
    await signIn(checkerPage, journey.server.url, { email: checker.email, password: PASSWORD });
    await checkerPage.getByRole('link', { name: 'Approvals' }).click();
    await checkerPage.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    const request = checkerPage.getByRole('row').filter({ hasText: 'Membership paid outside the wallet' });
    await request.getByText('₹1,000.00').waitFor();
    await request.getByRole('button', { name: /^Approve request \d+$/ }).click();
    dialog = checkerPage.getByRole('dialog', { name: 'Approve Request' });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await checkerPage.getByText(/^Request approved: Membership Journey Plan activated/).waitFor();
    await checkerPage.close();
    const approved = await api<{ data: { status: string; paidVia: string } | null }>(`/income/memberships/${outside.userId}`);
    expect(approved.data).toMatchObject({ status: 'active', paidVia: 'outside' });

    // The next day: both memberships earn from today.
    await page.close();
    await journey.offline(async (database) => {
      await database.query('update memberships set starts_on = starts_on - 1 where user_id = any($1::int8[])', [[wallet.userId, outside.userId]]);
    });
    page = await adminPage();

    // Income Runs → New Run: preview, then start; the progress reaches Completed.
    await page.getByRole('link', { name: 'Income Runs' }).click();
    await page.getByRole('heading', { level: 1, name: 'Income Runs' }).waitFor();
    await page.getByRole('button', { name: 'New Run' }).click();
    dialog = page.getByRole('dialog', { name: 'New Run' });
    await dialog.locator('input[type="date"]').fill(istToday());
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const preview = dialog.getByRole('region', { name: 'Preview' });
    await preview.waitFor();
    await preview.getByText('Nothing has been written: Start Run pays exactly once per period.').waitFor();
    await dialog.getByRole('button', { name: 'Start Run' }).click();
    await dialog.waitFor({ state: 'detached' });
    const details = page.getByRole('button', { name: /^Details of run \d+$/ }).first();
    const runId = Number((await details.getAttribute('aria-label'))!.replace(/\D+/g, ''));
    const runRow = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Details of run ${runId}` }) });
    await runRow.getByText('Completed', { exact: true }).waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: `Details of run ${runId}` }).click();
    const drawer = page.getByRole('dialog', { name: `Run #${runId}` });
    await drawer.getByRole('region', { name: 'Totals' }).waitFor();
    await drawer.getByRole('region', { name: 'Settings it used' }).waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    // ₹15 a day: TDS 75 paise, admin charge floor(37.5) = 37 paise: ₹13.88 to the member with a bank
    // account. The settings pay to the bank (issue 25): it passes through the wallet on to Bank
    // Transfers, where it waits to be gathered; the wallet keeps its ₹500.
    expect(await balance(wallet.userId)).toBe(500);
    expect(await balance(outside.userId)).toBe(0);
    expect(await toSend()).toEqual({ count: 1, total: 13.88, withoutAccount: 0, withoutAccountTotal: 0 });

    // Daily Payout: the Success and the Failure (no primary bank account) of the run.
    await openScreen(page, journey.server.url, { path: '/daily-payout', heading: 'Daily Payout' });
    const paidRow = page.getByRole('row').filter({ hasText: wallet.fullName });
    await paidRow.getByText('Success').waitFor();
    await paidRow.getByText('13.88').waitFor();
    const failedRow = page.getByRole('row').filter({ hasText: outside.fullName });
    await failedRow.getByText('Failure').waitFor();
    await failedRow.getByText('No primary bank account').waitFor();

    // Pay Now of the Failure: exactly its ₹13.88 goes on to the bank too (listed apart: the member has no bank account yet).
    await failedRow.getByRole('button', { name: new RegExp(`^Pay Now: ${outside.fullName}`) }).click();
    dialog = page.getByRole('dialog', { name: 'Process Payment' });
    await dialog.getByText('Why it failed: No primary bank account').waitFor();
    await dialog.getByRole('button', { name: 'Process Payment' }).click();
    await dialog.waitFor({ state: 'detached' });
    await until(async () => (await toSend()).withoutAccountTotal === 13.88, () => 'Pay Now did not send ₹13.88', T);
    await failedRow.getByText('Success').waitFor();
    expect(await balance(outside.userId)).toBe(0);

    // Revenue: both fees; the dashboard: ₹2,000 of membership fees.
    await openScreen(page, journey.server.url, { path: '/revenue', heading: 'Total Revenue' });
    for (const m of [wallet, outside]) await page.getByRole('row').filter({ hasText: m.fullName }).getByText('₹1,000.00').waitFor();
    await openScreen(page, journey.server.url, { path: '/', heading: 'Dashboard' });
    await page.getByText('₹2,000.00 in membership fees').waitFor();

    // Reverse the run: it turns Reversed and both members are back where they were before it.
    await openScreen(page, journey.server.url, { path: '/income/runs', heading: 'Income Runs' });
    await page.getByRole('button', { name: `Reverse run ${runId}` }).click();
    dialog = page.getByRole('dialog', { name: 'Reverse Run' });
    await dialog.getByLabel('Remarks').fill('Journey: the day was run by mistake');
    await dialog.getByRole('button', { name: 'Reverse Run' }).click();
    await dialog.waitFor({ state: 'detached' });
    await runRow.getByText('Reversed', { exact: true }).waitFor();
    expect(await balance(wallet.userId)).toBe(500);
    expect(await balance(outside.userId)).toBe(0);
    // Nothing had been gathered yet: the reversal takes both bank payouts back, nothing is left to send.
    expect(await toSend()).toEqual({ count: 0, total: 0, withoutAccount: 0, withoutAccountTotal: 0 });
    const run = await api<{ data: { status: string; shortfall: number } }>(`/income/runs/${runId}`);
    expect(run.data).toMatchObject({ status: 'reversed', shortfall: 0 });

    // The same day again: a day is paid once, net — a re-run waits for the second operator.
    await page.getByRole('button', { name: 'New Run' }).click();
    dialog = page.getByRole('dialog', { name: 'New Run' });
    await dialog.locator('input[type="date"]').fill(istToday());
    await dialog.getByRole('button', { name: 'Start Run' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(/running it again needs a second operator's approval\. The request awaits approval/).waitFor();
    expect(await balance(wallet.userId)).toBe(500);
    await approveOnScreen('Re-run of a reversed period', /^Request approved: Daily payout run \d+ started again for a reversed period$/, ['Reversed run']);
    await until(async () => (await toSend()).total === 13.88, () => 'the approved re-run did not send ₹13.88', T);
    expect(await balance(wallet.userId)).toBe(500);
    await page.close();
  }, 600_000);
});
