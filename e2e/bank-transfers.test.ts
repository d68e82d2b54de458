import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HDFC_FILE_COLUMNS } from '../src/contract/bank-transfers.ts';
import type { Database } from '../src/server/db/client.ts';
import { hashPassword } from '../src/server/modules/auth/passwords.ts';
import { insertUser } from '../src/server/modules/users/users.repository.ts';
import { accountWithPermissions } from '../src/server/test/accounts.ts';
import { chromiumPath } from './support/browser.ts';
import { ownDatabaseJourney, walletBalance } from './support/journey.ts';
import { openScreen, transitionsDone } from './support/screens.ts';
import { adminLogin } from './support/server.ts';

/**
 * Money out to banks in the browser (issue 25), on a fresh install without demo members:
 * four members, three with a primary bank account, each with an approved withdrawal (filed and
 * approved through the wallet routes, so they post through the books) → the maker (the ready
 * Accountant role) sees what can be gathered, gathers a batch and asks for its release → the
 * checker (the ready Approver role, two-factor on) approves the release on Approvals → the maker
 * downloads the batch's instruction file (HDFC layout) → imports the bank's response file (one
 * success, one rejection, one line unanswered) → the rejection waits for the checker, who approves
 * it on Approvals → the rejected member's wallet is credited back, with the bank's reason, on the
 * member's ledger and statement → Books: balanced, the unanswered
 * line still in transit, Company bank down by what the bank settled.
 *
 * Set E2E_SCREENSHOTS=<dir> to keep screenshots of the batch after the import and of the member page.
 */
const T = 30_000;
const PASSWORD = 'bank-journey-password-1';
const MAKER = { fullName: 'Meera Maker', email: 'meera.maker@bank-journey.test' };
const CHECKER = { fullName: 'Kiran Checker', email: 'kiran.checker@bank-journey.test' };
const REASON = 'Beneficiary account closed';
const UTR = 'HDFCN52026112500001';

interface Member {
  fullName: string;
  phone: string;
  /** Rupees: recharged, then withdrawn. */
  withdrawal: number;
  account?: { number: string; ifsc: string; bank: string };
  userId: number;
}
const asha: Member = { fullName: 'Asha Rao', phone: '9876520001', withdrawal: 1500, account: { number: '123456789012', ifsc: 'SBIN0000001', bank: 'State Bank of India' }, userId: 0 };
const bala: Member = { fullName: 'Bala Iyer', phone: '9876520002', withdrawal: 1200, account: { number: '223456789012', ifsc: 'ICIC0000002', bank: 'ICICI Bank' }, userId: 0 };
const chitra: Member = { fullName: 'Chitra Nair', phone: '9876520003', withdrawal: 800, account: { number: '323456789012', ifsc: 'UTIB0000003', bank: 'Axis Bank' }, userId: 0 };
const dev: Member = { fullName: 'Dev Menon', phone: '9876520004', withdrawal: 500, userId: 0 };
const MEMBERS = [asha, bala, chitra, dev];
const RECHARGE = 2000;

/** The India day as the bank file writes it: dd/mm/yyyy. */
const indiaDay = () => {
  const d = new Date(Date.now() + 330 * 60_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};

const money = (rupees: number) => `₹${rupees.toLocaleString('en-IN')}.00`;

/** A small CSV reader (quoted cells, doubled quotes, CRLF), enough for the instruction file. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') { cell += '"'; i += 1; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i += 1;
      row.push(cell); rows.push(row); row = []; cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) { row.push(cell); rows.push(row); }
  return rows;
}

async function staff(database: Database, who: { fullName: string; email: string }, role: string): Promise<number> {
  const [r] = await database.query<{ role_id: number }>('select role_id from roles where name = $1', [role]);
  const user = await insertUser(database.db, {
    fullName: who.fullName, email: who.email, phone: `70${String(Date.now()).slice(-8)}`, level: 1, roleId: r.role_id, canSignIn: true,
  });
  await database.query('update users set password_hash = $1 where user_id = $2', [await hashPassword(PASSWORD), user.userId]);
  return user.userId;
}

describe.skipIf(!chromiumPath)('bank transfers in Chromium', () => {
  /** The checker's authenticator, enrolled beforehand (the ready Approver role requires two-factor). */
  const checkerSecret = new Secret({ size: 20 }).base32;
  /** An operator who approves the members' withdrawals (wallet_manage), as a cashier does. */
  let cashierToken = '';
  const journey = ownDatabaseJourney('bank-transfers', { SEED_MEMBERS: '0' }, async (database) => {
    await staff(database, MAKER, 'Accountant');
    const checkerId = await staff(database, CHECKER, 'Approver');
    await database.query('insert into two_factor (user_id, secret, enabled_at) values ($1, $2, now())', [checkerId, checkerSecret]);
    cashierToken = await accountWithPermissions(database, ['wallet_manage', 'wallet_view']);
  });

  let keySerial = 0;
  async function call<R>(token: string, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<{ status: number; body: R }> {
    keySerial += 1;
    const res = await fetch(`${journey.server.url}/api${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': `bank-journey-${Date.now()}-${keySerial}` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as R };
  }

  async function signIn(page: Page, who: { email: string }, code?: () => string) {
    await page.goto(`${journey.server.url}/signin`);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Access Portal' }).click();
    if (code) {
      await page.getByLabel(/^Two-factor code/).fill(code());
      await page.getByRole('button', { name: 'Verify' }).click();
    }
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
  }

  async function shot(page: Page, name: string) {
    const dir = process.env.E2E_SCREENSHOTS;
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    // settled() would wait for ever here: the hidden "In transit" tab keeps a skeleton (its query is off until opened).
    await page.waitForFunction(
      () => ![...document.querySelectorAll('.top-progress, .mantine-Skeleton-root[data-visible], .mantine-Loader-root')].some((e) => e.checkVisibility()),
      undefined, { timeout: T },
    );
    await transitionsDone(page);
    await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  }

  /** A trial balance row's Debit and Credit cells (Account, Code, Type, Debit, Credit). */
  function trialBalance(page: Page, account: string): { debit: Locator; credit: Locator } {
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Open the statement of ${account}`, exact: true }) });
    return { debit: row.getByRole('cell').nth(3), credit: row.getByRole('cell').nth(4) };
  }

  it('gather → release by a second operator → instruction file → response file → a return on the member page → balanced books', async () => {
    // ---- Set-up through the API: members, bank accounts, wallet money, approved withdrawals ----
    const { token: admin } = await adminLogin(journey.server.url);
    for (const m of MEMBERS) {
      const created = await call<{ user: { userId: number } }>(admin, 'POST', '/users/register', {
        fullName: m.fullName, dob: '1990-01-15', email: `${m.phone}@bank-journey.test`, phone: m.phone,
      });
      expect(created.status).toBe(201);
      m.userId = created.body.user.userId;
      if (m.account) {
        const bank = await call(admin, 'POST', '/banks/createBankAccount', {
          userId: m.userId, accountHolderName: m.fullName, accountNumber: m.account.number, ifsc: m.account.ifsc, bank: m.account.bank, isPrimary: true,
        });
        expect(bank.status).toBe(201);
      }
      const recharge = await call(admin, 'POST', '/wallets/userWalletRecharge', { userId: m.userId, amount: RECHARGE, transactionType: 'wallet_recharge' });
      expect(recharge.status).toBe(200);
      // Filed by the administrator, approved by the cashier: the debit posts to "Withdrawals to send".
      const filed = await call<{ data: { id: number } }>(admin, 'POST', '/wallet/withdrawal', { userId: m.userId, amount: m.withdrawal });
      expect(filed.status).toBe(201);
      const approved = await call(cashierToken, 'PUT', `/wallet/withdrawals/${filed.body.data.id}`, { status: 'approved' });
      expect(approved.status).toBe(200);
    }
    expect(await walletBalance(journey.server.url, admin, bala.userId)).toBe(RECHARGE - bala.withdrawal);

    // ---- The maker: Bank Transfers → what can be gathered → Gather → Release ----
    const maker = await journey.browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    maker.setDefaultTimeout(T);
    await signIn(maker, MAKER);
    await maker.getByRole('link', { name: 'Bank Transfers', exact: true }).click();
    await maker.getByRole('heading', { level: 1, name: 'Bank Transfers' }).waitFor();
    await maker.getByRole('region', { name: 'Withdrawals to send', exact: true }).getByText('3', { exact: true }).waitFor();
    await maker.getByRole('region', { name: 'Amount to send', exact: true }).getByText('₹3,500.00').waitFor();
    await maker.getByRole('region', { name: 'Without a bank account', exact: true }).getByText('1 · ₹500.00').waitFor();
    await maker.getByText(`${dev.fullName} (${dev.userId}): ₹500.00 — The member has no primary bank account`).waitFor();

    await maker.getByRole('button', { name: 'Gather withdrawals' }).click();
    const gathered = await maker.getByText(/^Bank batch \d+ gathered: 3 transfers$/).innerText();
    const batchId = Number(/Bank batch (\d+)/.exec(gathered)![1]);
    // The new batch opens: its three lines, queued, the accounts as they are now.
    await maker.getByRole('heading', { level: 2, name: `Batch ${batchId}` }).waitFor();
    const lines = maker.getByRole('table', { name: `Lines of bank batch ${batchId}` });
    for (const m of [asha, bala, chitra]) await lines.getByRole('row').filter({ hasText: m.fullName }).getByText('Queued', { exact: true }).waitFor();
    await maker.getByText('Lines: 3 · Total: ₹3,500.00').waitFor();
    await maker.getByRole('region', { name: 'Withdrawals to send', exact: true }).getByText('0', { exact: true }).waitFor();

    await maker.getByRole('button', { name: 'Release', exact: true }).click();
    await maker.getByText(`Bank batch ${batchId} (3 transfers, ₹3,500.00) awaits release by a second operator`).first().waitFor();
    await maker.getByText('A second operator with money approval releases it on the Approvals screen.').waitFor();
    // No file before the release.
    expect(await maker.getByRole('button', { name: 'Download CSV' }).count()).toBe(0);

    // ---- The checker (two-factor): Approvals → approve the release ----
    const checkerContext = await journey.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const checker = await checkerContext.newPage();
    checker.setDefaultTimeout(T);
    await signIn(checker, CHECKER, () => TOTP.generate({ secret: Secret.fromBase32(checkerSecret) }));
    await checker.getByRole('link', { name: /^Approvals, 1 waiting for your decision$/ }).click();
    await checker.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    const request = checker.getByRole('row').filter({ hasText: 'Release of a bank transfer batch' });
    await request.getByRole('button', { name: /^Approve request \d+$/ }).click();
    const dialog = checker.getByRole('dialog', { name: 'Approve Request' });
    // Where the release sends the money: each transfer, its beneficiary and account.
    const sends = dialog.getByRole('table', { name: 'Transfers this release sends' });
    for (const m of [asha, bala, chitra]) await sends.getByRole('row').filter({ hasText: m.fullName }).getByText(money(m.withdrawal)).waitFor();
    await shot(checker, 'bank-release-approval');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await checker.getByText(`Request approved: Bank batch ${batchId} released: 3 transfers of ₹3,500.00 in transit`).waitFor();

    // ---- The maker again: released, released by the checker; the instruction file ----
    await maker.reload();
    await maker.getByRole('button', { name: `Open bank batch ${batchId}` }).click();
    await maker.getByRole('heading', { level: 2, name: `Batch ${batchId}` }).waitFor();
    await maker.getByText('Released', { exact: true }).first().waitFor();
    await maker.getByText(new RegExp(`^Released by: ${CHECKER.fullName}`)).waitFor();
    for (const m of [asha, bala, chitra]) await lines.getByRole('row').filter({ hasText: m.fullName }).getByText('In transit', { exact: true }).waitFor();

    const [download] = await Promise.all([maker.waitForEvent('download'), maker.getByRole('button', { name: 'Download CSV' }).click()]);
    const file = parseCsv(fs.readFileSync(await download.path(), 'utf8'));
    expect(file[0]).toEqual([...HDFC_FILE_COLUMNS]);
    expect(file.slice(1).filter((r) => r.length > 1)).toHaveLength(3);
    const refOf = (m: Member) => {
      const row = file.find((r) => r[4] === m.fullName);
      expect(row, `${m.fullName} in the instruction file`).toBeDefined();
      return row![5];
    };
    const ashaLine = file.find((r) => r[4] === asha.fullName)!;
    expect(ashaLine).toEqual([
      'N', expect.stringMatching(/^M\d+$/), asha.account!.number, '1500.00', asha.fullName, expect.stringMatching(new RegExp(`^BT${batchId}-\\d+$`)),
      `Withdrawal ${ashaLine[5]}`, indiaDay(), asha.account!.ifsc, asha.account!.bank, `${asha.phone}@bank-journey.test`,
    ]);

    // Books before the bank answers: the whole batch in transit, every recharge still in the company's bank.
    await openScreen(maker, journey.server.url, { path: '/books', heading: 'Books' });
    await maker.getByRole('status').filter({ hasText: 'Balanced' }).waitFor();
    await expect.poll(() => trialBalance(maker, 'Bank transfers in transit').credit.innerText(), { timeout: T }).toBe(money(3500));
    await expect.poll(() => trialBalance(maker, 'Company bank').debit.innerText(), { timeout: T }).toBe(money(RECHARGE * MEMBERS.length));
    // (Not openScreen: its settled() would wait for the hidden "In transit" tab's skeleton, see shot().)
    await maker.getByRole('link', { name: 'Bank Transfers', exact: true }).click();
    await maker.getByRole('heading', { level: 1, name: 'Bank Transfers' }).waitFor();
    await maker.getByRole('button', { name: `Open bank batch ${batchId}` }).click();
    await maker.getByRole('heading', { level: 2, name: `Batch ${batchId}` }).waitFor();

    // ---- The bank answers: Asha settled, Bala rejected, Chitra not answered yet ----
    const response = ['Reference,Status,UTR,Reason', `${refOf(asha)},SUCCESS,${UTR},`, `${refOf(bala)},REJECTED,,${REASON}`, ''].join('\r\n');
    const [chooser] = await Promise.all([maker.waitForEvent('filechooser'), maker.getByRole('button', { name: 'Import bank response' }).click()]);
    await chooser.setFiles({ name: 'hdfc-response.csv', mimeType: 'text/csv', buffer: Buffer.from(response) });
    // Bala's rejection waits for a second operator: the money stays in transit until then.
    await maker.getByText(/^Settled 1 \(₹1,500\.00\), returned 0 \(₹0\.00\),\s*returns awaiting approval 1 \(₹1,200\.00\),\s*duplicates 0, unknown 0, still in transit 0/).waitFor();
    await maker.getByText(/^The bank returned 1 transfer \(₹1,200\.00\): the money goes back to the members’ wallets once a second operator approves request \d+/).waitFor();
    await lines.getByRole('row').filter({ hasText: asha.fullName }).getByText('Settled', { exact: true }).waitFor();
    await lines.getByRole('row').filter({ hasText: asha.fullName }).getByText(UTR).waitFor();
    await lines.getByRole('row').filter({ hasText: bala.fullName }).getByText('Return awaits approval', { exact: true }).waitFor();
    await shot(maker, 'bank-batch-return-awaits');

    // ---- The checker: Approvals → the returns, with Bala's line and the bank's reason → approve ----
    await checker.reload();
    await checker.getByRole('link', { name: /^Approvals, 1 waiting for your decision$/ }).waitFor();
    const returnsRequest = checker.getByRole('row').filter({ hasText: 'Returns from the bank' });
    await returnsRequest.getByRole('button', { name: /^Approve request \d+$/ }).click();
    await dialog.getByText(`Returns from the bank of ₹1,200.00, requested by ${MAKER.fullName}.`).waitFor();
    const held = dialog.getByRole('table', { name: 'Transfers the bank returned' }).getByRole('row').filter({ hasText: bala.fullName });
    await held.getByText(REASON).waitFor();
    await held.getByText('₹1,200.00').waitFor();
    await shot(checker, 'bank-returns-approval');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await checker.getByText('Request approved: 1 return of ₹1,200.00 credited to members\u2019 wallets').waitFor();
    await checkerContext.close();

    await maker.reload();
    await maker.getByRole('button', { name: `Open bank batch ${batchId}` }).click();
    await maker.getByRole('heading', { level: 2, name: `Batch ${batchId}` }).waitFor();
    await lines.getByRole('row').filter({ hasText: bala.fullName }).getByText('Returned', { exact: true }).waitFor();
    await lines.getByRole('row').filter({ hasText: bala.fullName }).getByText(REASON).waitFor();
    await lines.getByRole('row').filter({ hasText: chitra.fullName }).getByText('In transit', { exact: true }).waitFor();
    await maker.getByText('Settled: 1 (₹1,500.00)').waitFor();
    await maker.getByText('Returned: 1 (₹1,200.00)').waitFor();
    await maker.getByText('Open: 1', { exact: true }).waitFor();
    await shot(maker, 'bank-batch-after-import');

    // Reconciliation: Chitra's line is the one still in transit.
    await maker.getByRole('tab', { name: 'In transit' }).click();
    const transit = maker.getByRole('table', { name: 'Bank transfers in transit' });
    await transit.getByRole('row').filter({ hasText: chitra.fullName }).getByText('₹800.00').waitFor();
    expect(await transit.getByRole('row').filter({ hasText: asha.fullName }).count()).toBe(0);

    // ---- Bala's page: the money is back, with the bank's reason, on the ledger and the statement ----
    await openScreen(maker, journey.server.url, { path: `/users/${bala.userId}`, heading: bala.fullName });
    await maker.getByRole('group', { name: 'Balance', exact: true }).getByText(money(RECHARGE)).waitFor();
    const returned = maker.getByRole('table', { name: `Ledger of ${bala.fullName}` }).getByRole('row').filter({ hasText: `Returned by the bank: ${REASON}` });
    await returned.getByText('+₹1,200.00').waitFor();
    const statementRow = maker.getByRole('table', { name: new RegExp(`^Statement of ${bala.fullName}, `) }).getByRole('row')
      .filter({ hasText: `Returned by the bank: ${REASON}` });
    await statementRow.getByText('+₹1,200.00').waitFor();
    await statementRow.getByText('Bank transfers in transit').waitFor();
    // Where the withdrawn money went: the transfer to Bala's bank, returned, with the bank's reason.
    const sent = maker.getByRole('region', { name: 'Transfers to the bank' }).getByRole('row').filter({ hasText: refOf(bala) });
    await sent.getByText('Returned', { exact: true }).waitFor();
    await sent.getByText(REASON).waitFor();
    await shot(maker, 'bank-return-member-page');

    // ---- Books: balanced; ₹800 still in transit, ₹500 still to send; Company bank down by the ₹1,500 settled ----
    await openScreen(maker, journey.server.url, { path: '/books', heading: 'Books' });
    await maker.getByRole('status').filter({ hasText: 'Balanced' }).waitFor();
    const cases: [string, 'debit' | 'credit', number][] = [
      ['Bank transfers in transit', 'credit', chitra.withdrawal],
      ['Withdrawals to send', 'credit', dev.withdrawal],
      ['Company bank', 'debit', RECHARGE * MEMBERS.length - asha.withdrawal],
      ['Member wallets', 'credit', RECHARGE * MEMBERS.length - asha.withdrawal - chitra.withdrawal - dev.withdrawal],
    ];
    for (const [account, side, rupees] of cases) {
      await expect.poll(() => trialBalance(maker, account)[side].innerText(), { timeout: T }).toBe(money(rupees));
    }
    await maker.close();
  }, 180_000);
});
