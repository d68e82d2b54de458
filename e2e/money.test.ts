import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath } from './support/browser.ts';
import { getJson, isoDay, serverAndBrowser, walletBalance, wire } from './support/journey.ts';
import { signIn } from './support/screens.ts';
import { adminLogin } from './support/server.ts';

describe.skipIf(!chromiumPath)('money journey in Chromium', () => {
  const journey = serverAndBrowser();
  let page: Page;
  let token: string;
  let adminId: number;

  const api = <T>(path: string) => getJson<T>(journey.server.url, token, path);
  const balance = (userId: number) => walletBalance(journey.server.url, token, userId);

  beforeAll(async () => {
    const login = await adminLogin(journey.server.url);
    ({ token, user: { userId: adminId } } = login);
    page = await journey.browser.newPage();
    await signIn(page, journey.server.url);
  });

  it('pays a failed payout with Pay Now (double-clicked): it turns Success and the wallet grows once', async () => {
    const from = isoDay(-35);
    const to = isoDay(0);
    const failed = await api<{ data: { id: number; userId: number; userName: string; amount: number; date: string }[] }>(
      `/wallets/dailyPayout?fromDate=${wire(from)}&toDate=${wire(to)}&status=Failure&limit=1`);
    expect(failed.data.length).toBe(1);
    const payout = failed.data[0];
    const before = await balance(payout.userId);

    await page.getByRole('link', { name: 'Daily Payout' }).click();
    await page.getByRole('heading', { name: 'Daily Payout' }).waitFor();
    await page.getByRole('region', { name: 'Total Payouts' }).getByText(/^[\d,]+$/).waitFor();
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(from);
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(to);
    await page.getByRole('textbox', { name: 'User Name', exact: true }).fill(payout.userName);
    await page.getByRole('button', { name: 'Search' }).click();
    const payNow = page.getByRole('button', { name: `Pay Now: ${payout.userName}, ${payout.date}` });
    await payNow.click();
    const dialog = page.getByRole('dialog', { name: 'Process Payment' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Process Payment' }).dblclick();
    await page.getByText('Payment processed successfully').waitFor();
    await payNow.waitFor({ state: 'detached' });

    const after = await api<{ data: { id: number; status: string }[] }>(
      `/wallets/dailyPayout?fromDate=${wire(payout.date)}&toDate=${wire(payout.date)}&userName=${encodeURIComponent(payout.userName)}`);
    expect(after.data.find((p) => p.id === payout.id)?.status).toBe('Success');
    expect(await balance(payout.userId)).toBeCloseTo(before + payout.amount, 2);
    const history = await api<{ history: { transactionType: string; description: string }[] }>(
      `/users/walletHistory?transactionType=dailyPayout&userId=${payout.userId}&limit=500`);
    expect(history.history.filter((h) => h.description === `Daily payout for ${payout.date}`)).toHaveLength(1);
  });

  it('adds a wallet recharge and a withdrawal through Add New Transaction', async () => {
    // Not the signed-in administrator's own wallet: nobody moves money on their own (issue 13).
    const members = await api<{ data: { userId: number; fullName: string }[] }>('/wallet/balances?limit=5');
    const member = members.data.find((m) => m.userId !== adminId)!;
    const before = await balance(member.userId);

    await page.getByRole('link', { name: 'User Wallet' }).click();
    await page.getByRole('heading', { name: 'User Wallet' }).waitFor();
    const add = async (amount: string, type: 'Wallet Recharge' | 'Wallet Withdrawal', confirmation: string) => {
      await page.getByRole('button', { name: 'Add User' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Transaction' });
      await dialog.waitFor();
      await dialog.getByLabel('User', { exact: true }).fill(member.fullName);
      await page.getByRole('option', { name: new RegExp(`\\(ID: ${member.userId}\\)`) }).click();
      await dialog.getByLabel('Amount', { exact: true }).fill(amount);
      await dialog.getByLabel('Transaction Type', { exact: true }).click();
      await page.getByRole('option', { name: type }).click();
      await dialog.getByRole('button', { name: 'Save Transaction' }).click();
      await page.getByText(confirmation).waitFor();
      await dialog.waitFor({ state: 'detached' });
    };
    await add('100', 'Wallet Recharge', 'Wallet recharged successfully');
    await page.getByRole('cell', { name: '+100.00' }).first().waitFor();
    await add('40', 'Wallet Withdrawal', 'Wallet withdrawal completed successfully');
    await page.getByRole('cell', { name: '-40.00' }).first().waitFor();
    expect(await balance(member.userId)).toBeCloseTo(before + 60, 2);
  });

  it('searches revenue with both dates, and says so when one is missing', async () => {
    await page.getByRole('link', { name: 'Revenue' }).click();
    await page.getByRole('heading', { name: 'Total Revenue' }).waitFor();
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(isoDay(-100));
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(isoDay(0));
    await page.getByRole('button', { name: 'Search' }).click();
    const expected = await api<{ count: number; totalAmount: number }>(
      `/wallets/adminRevenue?fromDate=${wire(isoDay(-100))}&toDate=${wire(isoDay(0))}&limit=1`);
    expect(expected.count).toBeGreaterThan(0);
    const count = page.getByRole('region', { name: 'Transactions' });
    await count.getByText(new Intl.NumberFormat('en-IN').format(expected.count), { exact: true }).waitFor();
    const total = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(expected.totalAmount);
    await page.getByRole('region', { name: 'Total Amount' }).getByText(total).waitFor();

    await page.getByRole('textbox', { name: 'From', exact: true }).fill('');
    await page.getByText('Please select both from and to dates').waitFor();
    expect(await page.getByRole('button', { name: 'Search' }).isDisabled()).toBe(true);
  });

  // Issue 15 item 1: the wallet list filtered by member, type, dates and amount, sorted by amount;
  // a reload keeps the rows and the controls; Clear Filters empties them.
  it('filters the wallet list, sorts it by amount, keeps the view over a reload, then clears it', async () => {
    const members = await api<{ data: { userId: number }[] }>('/wallet/balances?limit=10');
    const member = members.data.filter((m) => m.userId !== adminId).at(-1)!;
    for (const [amount, transactionType] of [[150, 'wallet_recharge'], [123.45, 'wallet_recharge'], [500, 'wallet_recharge'], [130, 'wallet_withdrawal']] as const) {
      const res = await fetch(`${journey.server.url}/api/wallets/userWalletRecharge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ userId: member.userId, amount, transactionType }),
      });
      expect(res.status).toBe(200);
    }

    await page.getByRole('link', { name: 'User Wallet' }).click();
    await page.getByRole('heading', { name: 'User Wallet' }).waitFor();
    const form = page.getByRole('form', { name: 'Filter wallet transactions' });
    const rows = page.getByRole('table', { name: 'Wallet transactions' }).locator('tbody tr');
    const shown = async () => (await rows.allInnerTexts()).map((text) => /[+-][\d,]+\.\d\d/.exec(text)?.[0] ?? '');
    await form.getByLabel('User', { exact: true }).fill(String(member.userId));
    await page.getByRole('option', { name: new RegExp(`\\(ID: ${member.userId}\\)`) }).click();
    await form.getByLabel('Type', { exact: true }).click();
    await page.getByRole('option', { name: 'Wallet Recharge' }).click();
    await form.getByRole('textbox', { name: 'From', exact: true }).fill(isoDay(-2));
    await form.getByRole('textbox', { name: 'To', exact: true }).fill(isoDay(1));
    await form.getByLabel('Min Amount', { exact: true }).fill('100');
    await form.getByLabel('Max Amount', { exact: true }).fill('200');
    await form.getByRole('button', { name: 'Search' }).click();
    await expect.poll(shown).toEqual(['+123.45', '+150.00']);
    const amountHeader = page.getByRole('columnheader', { name: 'Amount' });
    await amountHeader.getByRole('button').click();
    await expect.poll(shown).toEqual(['+123.45', '+150.00']);
    await amountHeader.getByRole('button').click();
    await expect.poll(shown).toEqual(['+150.00', '+123.45']);
    expect(await amountHeader.getAttribute('aria-sort')).toBe('descending');

    await page.reload();
    await page.getByRole('heading', { name: 'User Wallet' }).waitFor();
    await expect.poll(shown).toEqual(['+150.00', '+123.45']);
    expect(await amountHeader.getAttribute('aria-sort')).toBe('descending');
    expect(await form.getByLabel('User', { exact: true }).inputValue()).toContain(String(member.userId));
    expect(await form.getByLabel('Type', { exact: true }).inputValue()).toBe('Wallet Recharge');
    expect(await form.getByRole('textbox', { name: 'From', exact: true }).inputValue()).toBe(isoDay(-2));
    expect(await form.getByRole('textbox', { name: 'To', exact: true }).inputValue()).toBe(isoDay(1));
    expect(await form.getByLabel('Min Amount', { exact: true }).inputValue()).toBe('100');
    expect(await form.getByLabel('Max Amount', { exact: true }).inputValue()).toBe('200');

    await form.getByRole('button', { name: 'Clear Filters' }).click();
    await expect.poll(async () => (await shown()).filter(Boolean).length).toBeGreaterThan(2);
    expect(await form.getByLabel('Min Amount', { exact: true }).inputValue()).toBe('');
    expect(await form.getByLabel('Type', { exact: true }).inputValue()).toBe('Recharges and withdrawals');
    expect(new URL(page.url()).search).toBe('?sort=-amount');
  });
});
