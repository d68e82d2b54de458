import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { accountWithPermissions } from '../src/server/test/accounts.ts';
import { chromiumPath } from './support/browser.ts';
import { ownDatabaseJourney } from './support/journey.ts';
import { signIn } from './support/screens.ts';

interface Account {
  bankId: number;
  accountNumber: string;
  isPrimary: boolean;
  branch: string | null;
}

describe.skipIf(!chromiumPath)('bank accounts journey in Chromium', () => {
  // A second operator with money_approve: making an account primary waits for one.
  let checker = '';
  const journey = ownDatabaseJourney('banks', {}, async (database) => {
    checker = await accountWithPermissions(database, ['money_approve']);
  });
  let page: Page;
  let token: string;

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${journey.server.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status, path).toBeLessThan(300);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    page = await journey.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(page, journey.server.url);
    token = (await page.evaluate(() => localStorage.getItem('authToken')))!;
  });

  it('adds an account (an invalid IFSC refused on its field first), edits it, makes it primary and removes the old one', async () => {
    const { user } = await api<{ user: { userId: number } }>('POST', '/users/register', {
      fullName: 'Bina Bankjourney', dob: '1990-02-02', email: 'bina.bank@test.local', phone: '9123400011',
    });
    const old = (await api<{ data: Account }>('POST', '/banks/createBankAccount', {
      userId: user.userId, accountHolderName: 'Bina Bankjourney', accountNumber: '500100200300', ifsc: 'SBIN0004321', bank: 'State Bank of India',
    })).data;
    expect(old.isPrimary).toBe(true);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.url().includes('/api/banks/')) sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });

    await page.goto(`${journey.server.url}/bank`);
    await page.getByLabel('Find a member').fill('Bina Bankjourney');
    await page.getByRole('button', { name: 'View Bank Details of Bina Bankjourney' }).click();
    const details = page.getByRole('dialog', { name: 'Bank Details: Bina Bankjourney' });
    await details.getByRole('region', { name: 'Account #1' }).getByText('XXXXXXXX0300').waitFor();

    // Add: an invalid IFSC is refused on its field, and nothing is sent.
    await details.getByRole('button', { name: 'Add Account' }).click();
    const add = page.getByRole('dialog', { name: 'Add Bank Account' });
    await add.getByLabel(/Account Number/).fill('777888999000');
    await add.getByLabel(/IFSC Code/).fill('HDFC1000123');
    await add.getByLabel(/Bank Name/).fill('HDFC Bank');
    await add.getByRole('button', { name: 'Add Account' }).click();
    await add.getByText('IFSC code must look like SBIN0001234 (4 letters, 0, then 6 letters or digits)').waitFor();
    expect(await add.getByLabel(/IFSC Code/).getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
    await add.getByLabel(/IFSC Code/).fill('HDFC0000123');
    await add.getByRole('button', { name: 'Add Account' }).click();
    await details.getByText('Bank account created successfully').waitFor();
    await add.waitFor({ state: 'detached' });
    const added = details.getByRole('region', { name: 'Account #2' });
    await added.getByText('XXXXXXXX9000').waitFor();

    // Edit its branch.
    await details.getByRole('button', { name: 'Edit account ending 9000' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Bank Account' });
    await edit.getByLabel(/Branch/).fill('Koramangala');
    await edit.getByRole('button', { name: 'Update' }).click();
    await details.getByText('Bank account updated successfully').waitFor();
    await added.getByText('Koramangala').waitFor();

    // Make it primary: filed for a second operator; nothing moves until they approve.
    const filed = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/banks/updateBank/'));
    await details.getByRole('button', { name: 'Make account ending 9000 primary' }).click();
    const { data: { approvalId } } = (await (await filed).json()) as { data: { approvalId: number } };
    await details.getByText(
      'Making this account primary awaits approval by a second operator on the Approvals screen; payouts go to the current primary account until then',
    ).waitFor();
    await details.getByRole('region', { name: 'Account #1' }).getByText('XXXXXXXX0300').waitFor();
    // The primary has no Delete: another account is made primary first.
    expect(await details.getByRole('button', { name: 'Delete account ending 0300' }).count()).toBe(0);
    const approved = await fetch(`${journey.server.url}/api/approvals/${approvalId}/approve`, {
      method: 'POST', headers: { authorization: `Bearer ${checker}`, 'idempotency-key': randomUUID() },
    });
    expect(approved.status).toBe(200);

    // Opened again: it moves first, badged; the old one loses the badge.
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'View Bank Details of Bina Bankjourney' }).click();
    const first = details.getByRole('region', { name: 'Account #1' });
    await first.getByText('XXXXXXXX9000').waitFor();
    await first.getByText('Primary Account').waitFor();
    expect(await details.getByRole('region', { name: 'Account #2' }).getByText('Primary Account').count()).toBe(0);

    // Remove the old one, after confirming.
    await details.getByRole('button', { name: 'Delete account ending 0300' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Bank Account' });
    await confirm.getByText(/Delete the account ending 0300 \(State Bank of India\)\?/).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await details.getByText('Bank account deleted successfully').waitFor();
    await details.getByRole('region', { name: 'Account #2' }).waitFor({ state: 'detached' });

    const { data } = await api<{ data: Account[] }>('GET', `/banks/getBanksByUserId/${user.userId}`);
    expect(data.map((a) => [a.accountNumber, a.isPrimary, a.branch])).toEqual([['777888999000', true, 'Koramangala']]);
    expect(sent).toEqual([
      'POST /api/banks/createBankAccount',
      expect.stringMatching(/^PUT \/api\/banks\/updateBank\/\d+$/),
      expect.stringMatching(/^PUT \/api\/banks\/updateBank\/\d+$/),
      `DELETE /api/banks/deleteBank/${old.bankId}`,
    ]);
  });
});
