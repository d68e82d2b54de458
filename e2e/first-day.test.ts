import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from './support/browser.ts';
import { ownDatabaseJourney } from './support/journey.ts';
import { openScreen, settled, signIn } from './support/screens.ts';
import { adminLogin, E2E_ADMIN } from './support/server.ts';
import { until } from './support/wait.ts';

/**
 * A team's first day (issue 24), as a new operator team lives it, on a fresh install (no demo
 * members) with a ₹500 approval threshold, asserting what each screen shows at each step:
 * the ready roles → the administrator invites an approver (who works from New York and enrols
 * two-factor) → a plan and the income settings, each approved by the approver → a referral tree
 * of four members made on User Management → two recharges above the threshold, approved in bulk →
 * three activations (two from the wallet, one paid outside and approved) → the next day's payout
 * run → Pay Now on one failure → the reversal of the run, whose dialog says exactly what it takes
 * back → what the member page, Daily Payout and the approver's screens then show.
 *
 * Between the activations and the run the server is stopped for "the next day": the memberships
 * move back one day and the top member gets a bank account (the others fail: no bank account).
 */
const T = 60_000; // a busy 2-core machine
const APPROVER = { fullName: 'Asha Approver', email: 'asha.approver@first-day.test', password: 'asha-approver-password-1' };
const istToday = () => new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);
const codeAt = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });
/** The 30-second step an authenticator is on. */
const stepNow = () => Math.floor(Date.now() / 30_000);

interface Member {
  fullName: string;
  phone: string;
  /** Whose referral this member is (by the referrer's user id, as the Add User form takes it). */
  referrer?: Member;
  userId: number;
}
const ravi: Member = { fullName: 'Ravi Top', phone: '9876510001', userId: 0 };
const sita: Member = { fullName: 'Sita Left', phone: '9876510002', referrer: ravi, userId: 0 };
const mohan: Member = { fullName: 'Mohan Right', phone: '9876510003', referrer: ravi, userId: 0 };
const leela: Member = { fullName: 'Leela Deep', phone: '9876510004', referrer: sita, userId: 0 };

describe.skipIf(!chromiumPath)("a team's first day in Chromium", () => {
  const journey = ownDatabaseJourney('first-day', { SEED_MEMBERS: '0', APPROVAL_THRESHOLD: '500' });
  let approverSecret = '';
  /** A code is good once: each sign-in takes a step after the last one used (the enrolment's first). */
  let approverLastStep = 0;
  async function approverCode(): Promise<string> {
    const step = Math.max(stepNow(), approverLastStep + 1);
    // The server takes the step before and after its own; a later one waits for its time.
    await until(() => stepNow() >= step - 1, () => 'the next two-factor step did not come', T);
    approverLastStep = step;
    return TOTP.generate({ secret: Secret.fromBase32(approverSecret), timestamp: step * 30_000 });
  }
  async function api<R>(url: string): Promise<R> {
    const { token } = await adminLogin(journey.server.url);
    const res = await fetch(`${journey.server.url}/api${url}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as R;
  }
  const balance = async (m: Member) => (await api<{ data: { balance: number } }>(`/wallet/balance/${m.userId}`)).data.balance;

  async function adminPage(): Promise<Page> {
    const page = await journey.browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(T);
    await signIn(page, journey.server.url);
    return page;
  }

  /**
   * The approver's browser, in New York: signed in once (password, then the code of the step after
   * the enrolment's; a code is good once), then kept, as a colleague keeps the panel open.
   */
  let approverTab: Page | null = null;
  async function approverPage(): Promise<Page> {
    if (approverTab) {
      await approverTab.goto(`${journey.server.url}/`);
      await approverTab.getByRole('navigation', { name: 'Main navigation' }).waitFor();
      return approverTab;
    }
    const context = await journey.browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: 'America/New_York' });
    const page = await context.newPage();
    page.setDefaultTimeout(T);
    await page.goto(`${journey.server.url}/signin`);
    await page.getByLabel('Email').fill(APPROVER.email);
    await page.getByLabel(/^Password/).fill(APPROVER.password);
    await page.getByRole('button', { name: 'Access Portal' }).click();
    await page.getByLabel(/^Two-factor code/).fill(await approverCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    approverTab = page;
    return page;
  }

  /** The approver approves the one pending request of `kind` on Approvals, from its dialog. */
  async function approve(kind: string, answer: RegExp) {
    const page = await approverPage();
    await page.getByRole('link', { name: /^Approvals, 1 waiting for your decision$/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    const request = page.getByRole('row').filter({ hasText: kind });
    await request.getByRole('button', { name: /^Approve request \d+$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve Request' });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(answer).waitFor();
  }

  /** The value beside a label in one of the run's detail tables ("TDS" → "₹1.50"). */
  const detail = (scope: Locator, label: string) =>
    scope.getByRole('row').filter({ has: scope.page().getByRole('rowheader', { name: label, exact: true }) }).getByRole('cell');

  it('fresh install → ready roles → invite → two-factor → plan → tree → activations → run → Pay Now → reversal', async () => {
    let page = await adminPage();

    // A fresh install: the administrator is staff, not a member — the dashboard counts nobody.
    await page.getByRole('region', { name: 'Total Users', exact: true }).getByText('0', { exact: true }).waitFor();

    // Ready roles: the first invitation can offer them.
    await openScreen(page, journey.server.url, { path: '/roles', heading: 'User Roles' });
    for (const role of ['Operator', 'Approver', 'Accountant', 'Support']) {
      await page.getByRole('row').filter({ hasText: role }).first().waitFor();
    }

    // Staff → Invite staff: an approver.
    await openScreen(page, journey.server.url, { path: '/staff', heading: 'Staff' });
    await page.getByRole('button', { name: 'Invite staff' }).click();
    let dialog = page.getByRole('dialog', { name: 'Invite staff' });
    await dialog.getByLabel(/^Full name/).fill(APPROVER.fullName);
    await dialog.getByLabel(/^Email/).fill(APPROVER.email);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    for (const role of ['Operator', 'Approver', 'Accountant', 'Support']) await page.getByRole('option', { name: new RegExp(`^${role}`) }).waitFor();
    await page.getByRole('option', { name: /^Approver/ }).click();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.waitFor({ state: 'detached' });
    const link = new URL(await until(() => {
      const line = journey.server.output().split('\n').find((l) => l.includes('staff invitation mail') && l.includes(APPROVER.email));
      return line && /"inviteLink":"([^"]+)"/.exec(line)?.[1];
    }, () => `no invitation in the server output:\n${journey.server.output()}`, T));

    // The approver, in New York, sets a password and enrols two-factor (the Approver role requires it).
    {
      const context = await journey.browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: 'America/New_York' });
      const invited = await context.newPage();
      invited.setDefaultTimeout(T);
      await invited.goto(`${journey.server.url}${link.pathname}${link.search}`);
      await invited.getByLabel(/^New password/).fill(APPROVER.password);
      await invited.getByLabel(/^Confirm password/).fill(APPROVER.password);
      await invited.getByRole('button', { name: 'Set password' }).click();
      await invited.getByText('Your password has been set. You can sign in now.').waitFor();
      await invited.goto(`${journey.server.url}/signin`);
      await invited.getByLabel('Email').fill(APPROVER.email);
      await invited.getByLabel(/^Password/).fill(APPROVER.password);
      await invited.getByRole('button', { name: 'Access Portal' }).click();
      await invited.waitForURL('**/two-factor-setup');
      approverSecret = (await invited.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
      approverLastStep = stepNow();
      await invited.getByLabel(/^6-digit code/).fill(codeAt(approverSecret));
      await invited.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await invited.getByRole('button', { name: 'I have saved them' }).click();
      await invited.waitForURL(`${journey.server.url}/`);
      // The approver holds money_approve but not users_edit: Approvals is theirs, nothing waits yet.
      await invited.getByRole('link', { name: 'Approvals', exact: true }).waitFor();
      await context.close();
    }

    // Membership Plans → Add Plan: ₹1,000, 1.5 % a day (₹15), 30 days, cap ₹2,000 — approved by the approver.
    await openScreen(page, journey.server.url, { path: '/income/plans', heading: 'Membership Plans' });
    await page.getByRole('button', { name: 'Add Plan' }).click();
    dialog = page.getByRole('dialog', { name: 'Add Plan' });
    await dialog.getByLabel('Plan Name').fill('Starter');
    await dialog.getByLabel('Price (₹)').fill('1000');
    // A cap below the price is refused at its field, and nothing is sent.
    await dialog.getByLabel('Total payout cap (₹)').fill('900');
    await dialog.getByLabel('Daily payout (% of the price)').fill('1.5');
    await dialog.getByLabel('Duration (days)').fill('30');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Cap must be at least the price').waitFor();
    await dialog.getByLabel('Total payout cap (₹)').fill('2000');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText(/^New plan Starter awaits approval by a second operator with money_approve/).waitFor();
    await approve('New membership plan', /^Request approved: Plan Starter created/);

    // Income Settings: TDS 5 %, admin charge 2.5 %, paid to the bank account, every day a business day.
    await openScreen(page, journey.server.url, { path: '/income/settings', heading: 'Income Settings' });
    await settled(page);
    await page.getByLabel('TDS (%)').fill('5');
    // Issue 25: the journey's members have no PAN; their TDS is the plan's 5 %, not the 206AA default.
    await page.getByLabel('TDS without PAN (%)').fill('5');
    await page.getByLabel('Admin charge (%)').fill('2.5');
    await page.getByRole('combobox', { name: 'Pay to' }).click();
    await page.getByRole('option', { name: 'Bank account' }).click();
    await page.getByLabel('Pay on weekends').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/await approval by a second operator/).first().waitFor();
    await approve('Income settings change', /^Request approved: Income settings saved/);

    // The referral tree on User Management: Ravi; Sita and Mohan under him; Leela under Sita.
    await openScreen(page, journey.server.url, { path: '/users', heading: 'User Management' });
    for (const m of [ravi, sita, mohan, leela]) {
      await page.getByRole('button', { name: 'Add User' }).click();
      dialog = page.getByRole('dialog', { name: 'Add User' });
      await dialog.getByLabel(/^Full Name/).fill(m.fullName);
      await dialog.getByLabel(/^Date of Birth/).fill('1990-01-15');
      await dialog.getByLabel(/^Email Address/).fill(`${m.phone}@first-day.test`);
      await dialog.getByLabel(/^Phone Number/).fill(m.phone);
      if (m.referrer) await dialog.getByLabel(/^Referral Code/).fill(String(m.referrer.userId));
      await dialog.getByRole('button', { name: 'Save User' }).click();
      await page.getByText('User created successfully').first().waitFor();
      await dialog.waitFor({ state: 'detached' });
      const found = await api<{ users: Array<{ userId: number; fullName: string }> }>('/users/getAllusers?limit=100');
      m.userId = found.users.find((u) => u.fullName === m.fullName)!.userId;
    }
    // Staff are not members: the list holds the four members only, and no "Level 0" is offered.
    await page.getByText('Total Users: 4').waitFor();
    await page.locator('input[aria-label="Filter by level"]').click();
    await page.getByRole('option', { name: 'Level 1', exact: true }).waitFor();
    expect(await page.getByRole('option', { name: 'Level 0', exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await openScreen(page, journey.server.url, { path: '/', heading: 'Dashboard' });
    await page.getByRole('region', { name: 'Total Users', exact: true }).getByText('4', { exact: true }).waitFor();

    // User Wallet: ₹1,000 for Ravi and for Sita, each above the threshold: both wait…
    await openScreen(page, journey.server.url, { path: '/wallet', heading: 'User Wallet' });
    for (const m of [ravi, sita]) {
      await page.getByRole('button', { name: 'Add User' }).click();
      dialog = page.getByRole('dialog', { name: 'Add New Transaction' });
      await dialog.getByLabel('User', { exact: true }).fill(m.fullName);
      await page.getByRole('option', { name: new RegExp(`\\(ID: ${m.userId}\\)`) }).click();
      await dialog.getByLabel('Transaction Type', { exact: true }).click();
      await page.getByRole('option', { name: 'Wallet Recharge' }).click();
      await dialog.getByLabel('Amount', { exact: true }).fill('1000');
      await dialog.getByRole('button', { name: 'Save Transaction' }).click();
      await page.getByText(/awaits approval by a second operator/).first().waitFor();
      await dialog.waitFor({ state: 'detached' }).catch(async () => {
        await dialog.getByRole('button', { name: 'Cancel' }).click();
      });
    }
    expect(await balance(ravi)).toBe(0);

    // …and the approver approves both at once: select the page, Approve selected, a summary.
    {
      const approver = await approverPage();
      await approver.getByRole('link', { name: /^Approvals, 2 waiting for your decision$/ }).click();
      await approver.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
      // Times are India times, labelled, though this browser is in New York.
      await approver.getByRole('row').filter({ hasText: ravi.fullName }).getByText(/\d{2}:\d{2} [ap]m IST$/).waitFor();
      await approver.getByRole('checkbox', { name: /^Select every row on this page/ }).check();
      await approver.getByText('2 selected').waitFor();
      await approver.getByRole('button', { name: 'Approve selected' }).click();
      const confirm = approver.getByRole('dialog', { name: 'Approve 2 requests' });
      await confirm.getByRole('button', { name: 'Approve 2 requests' }).click();
      const run = approver.getByRole('dialog', { name: 'Approving 2 requests' });
      await run.getByText('2 succeeded, 0 did not').waitFor();
      await run.getByRole('button', { name: 'Done' }).click();
    }
    expect(await balance(ravi)).toBe(1000);
    expect(await balance(sita)).toBe(1000);

    // Activations: Ravi and Sita from their member pages (paid from the wallet); Sita's pays Ravi level income.
    for (const m of [ravi, sita]) {
      await page.goto(`${journey.server.url}/users/${m.userId}`);
      await page.getByRole('heading', { level: 1, name: m.fullName }).waitFor();
      await page.getByRole('button', { name: 'Activate Membership' }).click();
      dialog = page.getByRole('dialog', { name: 'Activate Membership' });
      await dialog.getByRole('combobox', { name: 'Plan' }).click();
      await page.getByRole('option', { name: /^Starter/ }).click();
      await dialog.getByRole('button', { name: 'Activate' }).click();
      await page.getByText(new RegExp(`^Membership Starter activated for member ${m.userId}`)).waitFor();
      await dialog.waitFor({ state: 'detached' });
    }
    // Mohan's is paid outside the wallet: above the threshold (its cap), it waits for the approver.
    await openScreen(page, journey.server.url, { path: '/membership', heading: 'Membership' });
    await page.getByRole('button', { name: 'Activate Membership' }).click();
    dialog = page.getByRole('dialog', { name: 'Activate Membership' });
    await dialog.getByRole('combobox', { name: 'Member' }).fill(mohan.fullName);
    await page.getByRole('option', { name: new RegExp(`\\(ID: ${mohan.userId}\\)`) }).click();
    await dialog.getByRole('combobox', { name: 'Plan' }).click();
    await page.getByRole('option', { name: /^Starter/ }).click();
    await dialog.getByText('Paid outside (cash, bank transfer, UPI)').click();
    await dialog.getByLabel('Method').fill('UPI');
    await dialog.getByLabel('Reference').fill('UTR-FIRST-DAY-1');
    await dialog.getByRole('button', { name: 'Activate' }).click();
    await page.getByText(/this activation awaits approval by a second operator/).waitFor();
    await approve('Membership paid outside the wallet', /^Request approved: Membership Starter activated/);

    // Ravi's page: his money where he is — the balance, level income earned, every ledger line in words.
    await page.goto(`${journey.server.url}/users/${ravi.userId}`);
    await page.getByRole('heading', { level: 1, name: ravi.fullName }).waitFor();
    const ledger = page.getByRole('region', { name: 'Ledger', exact: true });
    await ledger.getByRole('row').filter({ hasText: 'Level income' }).first().waitFor();
    await ledger.getByRole('row').filter({ hasText: 'Wallet recharge' }).first().getByText(APPROVER.fullName).waitFor();
    await ledger.getByRole('row').filter({ hasText: 'Membership fee' }).first().waitFor();
    expect(await page.getByText('$').count()).toBe(0);

    // The next day: the memberships earn from today; Ravi has a bank account, Sita and Mohan none.
    let adminName = '';
    await page.close();
    // The server comes back on another address: the approver will sign in again there.
    await approverTab?.context().close();
    approverTab = null;
    await journey.offline(async (database) => {
      await database.query('update memberships set starts_on = starts_on - 1 where user_id = any($1::int8[])', [[ravi.userId, sita.userId, mohan.userId]]);
      await database.query(`insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, is_primary)
        values ($1, $2, '123456789012', 'SBIN0000001', 'SBI', true)`, [ravi.userId, ravi.fullName]);
      [{ full_name: adminName }] = await database.query<{ full_name: string }>('select full_name from users where email = $1', [E2E_ADMIN.email]);
    });
    page = await adminPage();

    // Income Runs → New Run: preview, start, Completed; the details name TDS and admin charge apart.
    await openScreen(page, journey.server.url, { path: '/income/runs', heading: 'Income Runs' });
    await page.getByRole('button', { name: 'New Run' }).click();
    dialog = page.getByRole('dialog', { name: 'New Run' });
    await dialog.locator('input[type="date"]').fill(istToday());
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByRole('region', { name: 'Preview' }).waitFor();
    await dialog.getByRole('button', { name: 'Start Run' }).click();
    await dialog.waitFor({ state: 'detached' });
    const details = page.getByRole('button', { name: /^Details of run \d+$/ }).first();
    const runId = Number((await details.getAttribute('aria-label'))!.replace(/\D+/g, ''));
    const runRow = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Details of run ${runId}` }) });
    await runRow.getByText('Completed', { exact: true }).waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: `Details of run ${runId}` }).click();
    let drawer = page.getByRole('dialog', { name: `Run #${runId}` });
    const totals = drawer.getByRole('region', { name: 'Totals' });
    // ₹15 a day each: TDS 75 paise, admin charge 37 paise; Ravi paid, the two others wait for Pay Now.
    await detail(totals, 'Gross of the paid lines').getByText('₹15.00').waitFor();
    await detail(totals, 'TDS').getByText('₹0.75').waitFor();
    await detail(totals, 'Admin charge').getByText('₹0.37').waitFor();
    await detail(totals, 'Net (paid to members)').getByText('₹13.88').waitFor();
    await detail(totals, 'Failed, net (awaiting Pay Now)').getByText('₹27.76').waitFor();
    await detail(totals, 'Paid').getByText('1', { exact: true }).waitFor();
    await detail(totals, 'Failed').getByText('2', { exact: true }).waitFor();
    await detail(drawer.getByRole('region', { name: 'Run' }), 'Started by').getByText(adminName).waitFor();
    const lines = drawer.getByRole('region', { name: 'Lines per member' });
    for (const m of [ravi, sita, mohan]) await lines.getByRole('row').filter({ hasText: m.fullName }).first().waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // Daily Payout: Ravi paid; Sita and Mohan failed (no bank account). Pay Now for Sita.
    await openScreen(page, journey.server.url, { path: '/daily-payout', heading: 'Daily Payout' });
    await page.getByRole('row').filter({ hasText: ravi.fullName }).getByText('Success').waitFor();
    const sitaRow = page.getByRole('row').filter({ hasText: sita.fullName });
    await sitaRow.getByText('Failure').waitFor();
    await sitaRow.getByRole('button', { name: new RegExp(`^Pay Now: ${sita.fullName}`) }).click();
    dialog = page.getByRole('dialog', { name: 'Process Payment' });
    await dialog.getByRole('button', { name: 'Process Payment' }).click();
    await dialog.waitFor({ state: 'detached' });
    // ₹1,000 reached Sita today already (her recharge): any more today waits for a second operator.
    await page.getByText(/awaits approval by a second operator/).first().waitFor();
    await sitaRow.getByText('Failure').waitFor();
    await approve('Daily payout payment (Pay Now)', /^Request approved/);
    await page.reload();
    await sitaRow.getByText('Success').waitFor();
    // Paid to the bank (issue 25): the ₹13.88 passes through her wallet on to Bank Transfers.
    expect(await balance(sita)).toBe(0);

    // The run's counts follow the Pay Now: 2 paid, 1 failed.
    await openScreen(page, journey.server.url, { path: '/income/runs', heading: 'Income Runs' });
    await page.getByRole('button', { name: `Details of run ${runId}` }).click();
    drawer = page.getByRole('dialog', { name: `Run #${runId}` });
    await detail(drawer.getByRole('region', { name: 'Totals' }), 'Paid').getByText('2', { exact: true }).waitFor();
    await detail(drawer.getByRole('region', { name: 'Totals' }), 'Failed').getByText('1', { exact: true }).waitFor();
    await detail(drawer.getByRole('region', { name: 'Totals' }), 'Net (paid to members)').getByText('₹27.76').waitFor();
    await detail(drawer.getByRole('region', { name: 'Totals' }), 'Failed, net (awaiting Pay Now)').getByText('₹13.88').waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // Reverse: the dialog says exactly what goes back — Sita's Pay Now included, Mohan's failure marked.
    await page.getByRole('button', { name: `Reverse run ${runId}` }).click();
    dialog = page.getByRole('dialog', { name: 'Reverse Run' });
    const what = dialog.getByRole('region', { name: 'What will be reversed' });
    // Each payout is four lines (gross credit, TDS, admin charge, paid to bank): Ravi's and Sita's Pay Now.
    await what.getByText('8 line(s) of 2 member(s) will be reversed.').waitFor();
    await what.getByText('Gross ₹30.00, TDS and admin charge ₹2.24, net ₹27.76.').waitFor();
    await what.getByText('Included: 4 Pay Now line(s) of 1 member(s), paid after the run.').waitFor();
    // Nothing was gathered yet: what waited to go to the banks is cancelled with the rest.
    await what.getByText(/^Not yet in a bank batch: ₹27\.76 to send to banks is cancelled/).waitFor();
    await what.getByText('1 unpaid failure(s) will be marked Reversed.').waitFor();
    await dialog.getByLabel('Remarks').fill('First day: run by mistake');
    await dialog.getByRole('button', { name: 'Reverse Run' }).click();
    await dialog.waitFor({ state: 'detached' });
    await runRow.getByText('Reversed', { exact: true }).waitFor();
    // Ravi keeps his level income (₹100 from each of Sita's and Mohan's activations); the day is gone.
    expect(await balance(ravi)).toBe(200);
    expect(await balance(sita)).toBe(0);

    // Daily Payout keeps the day: each payout marked Reversed, by whom and why.
    await openScreen(page, journey.server.url, { path: '/daily-payout', heading: 'Daily Payout' });
    for (const m of [ravi, sita, mohan]) {
      const row = page.getByRole('row').filter({ hasText: m.fullName });
      await row.getByText('Reversed', { exact: true }).first().waitFor();
      await row.getByText(`Reversed by ${adminName}`).first().waitFor();
    }

    // Ravi's ledger: the payout and its reversal, each in words, the reversal naming its run.
    await page.goto(`${journey.server.url}/users/${ravi.userId}`);
    await page.getByRole('heading', { level: 1, name: ravi.fullName }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Daily payout' }).first().waitFor();
    await page.getByRole('row').filter({ hasText: new RegExp(`Reversal.*run #?${runId}|run #?${runId}.*Reversal`, 'i') }).first().waitFor();

    // The administrator follows the requests filed today under My requests: the approver's name on each.
    await openScreen(page, journey.server.url, { path: '/approvals', heading: 'Approvals' });
    await page.getByRole('tab', { name: 'My requests' }).click();
    await page.getByRole('row').filter({ hasText: 'New membership plan' }).getByText(APPROVER.fullName).waitFor();
    await page.close();
  }, 900_000);
});
