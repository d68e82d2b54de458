import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath } from './support/browser.ts';
import { serverAndBrowser } from './support/journey.ts';
import { signIn } from './support/screens.ts';

interface ApiUser {
  userId: number;
  fullName: string;
  referralCode: string;
  level: number;
}

describe.skipIf(!chromiumPath)('members journey in Chromium', () => {
  const journey = serverAndBrowser();
  let page: Page;
  let token: string;

  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${journey.server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  /** Picks an option of one of the Mantine selects by its accessible label. */
  const choose = async (label: string, option: string | RegExp) => {
    await select(label).click();
    await page.getByRole('option', { name: option }).click();
  };
  const select = (label: string) => page.locator(`input[aria-label="${label}"]`);
  const tableRows = () => page.getByRole('table', { name: 'Users' }).locator('tbody tr');
  // The users table's first column holds the bulk-selection checkboxes (issue 24): the spec's
  // columns start at the second cell.
  const settled = () => page.getByText('Updated just now').waitFor();

  beforeAll(async () => {
    page = await journey.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(page, journey.server.url);
    token = (await page.evaluate(() => localStorage.getItem('authToken')))!;
  });

  it('adds a referred member, finds them in the referrer\'s downline, edits, filters, deletes', async () => {
    const { users: [referrer] } = await api<{ users: ApiUser[] }>('/users/getAllusers?level=2&limit=1');
    await page.goto(`${journey.server.url}/users`);
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    await settled();

    await page.getByRole('button', { name: 'Add User' }).click();
    const form = page.getByRole('dialog', { name: 'Add User' });
    await form.getByRole('button', { name: 'Save User' }).click();
    await form.getByText('Please fill in all required fields (Full Name, Date of Birth, Email, Phone)').waitFor();
    await form.getByLabel(/Full Name/).fill('Zara Journey');
    await form.getByLabel(/Date of Birth/).fill('1992-07-14');
    await form.getByLabel(/Email Address/).fill('zara.journey@test.local');
    await form.getByLabel(/Phone Number/).fill('9012345678');
    await form.getByLabel(/Referral Code/).fill(referrer.referralCode);
    await form.getByRole('button', { name: 'Save User' }).click();
    await page.getByText('User created successfully').waitFor();

    // The new member, found through the searchable name filter, sits one level below the referrer.
    const nameFilter = select('Filter by user name');
    await nameFilter.fill('Zara Jour');
    await page.getByRole('option', { name: /^Zara Journey \(ID: \d+\)$/ }).click();
    await settled();
    // The filter's own answer, not an earlier refresh of the unfiltered list that ends just after the pick.
    await expect.poll(() => tableRows().count(), { timeout: 10_000 }).toBe(1);
    const row = tableRows().first();
    await row.getByText(referrer.fullName).waitFor();
    expect(await row.locator('td').nth(7).innerText()).toBe(String(referrer.level + 1));
    await page.getByText('Total Users: 1').waitFor();

    // ...and in the referrer's downline.
    await nameFilter.fill(String(referrer.userId));
    await page.getByRole('option', { name: `${referrer.fullName} (ID: ${referrer.userId})` }).click();
    await settled();
    await tableRows().first().getByRole('button', { name: 'Downline' }).click();
    const downline = page.getByRole('dialog', { name: `Downline for ${referrer.fullName} (ID: ${referrer.userId})` });
    await downline.getByText('Members directly referred by this user.').waitFor();
    await downline.getByRole('cell', { name: 'Zara Journey' }).waitFor();
    await page.keyboard.press('Escape');
    await downline.waitFor({ state: 'hidden' });

    // Edit.
    await nameFilter.fill('Zara Jour');
    await page.getByRole('option', { name: /^Zara Journey/ }).click();
    await settled();
    await page.getByRole('button', { name: 'Edit Zara Journey' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByLabel(/Full Name/).fill('Zara Journey-Edited');
    await edit.getByRole('button', { name: 'Save User' }).click();
    await page.getByText('User updated successfully').waitFor();
    await page.getByText('Zara Journey-Edited', { exact: true }).waitFor();

    // Delete: the member leaves the list.
    await page.getByRole('button', { name: 'Delete Zara Journey-Edited' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Delete' });
    await confirm.getByText('Are you sure you want to delete this user? This action cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('User deleted successfully').waitFor();
    await page.getByText('No users found').waitFor();
    await page.getByText('Try adjusting your search filters').waitFor();

    // Level and rank filters agree with the server's counts.
    await choose('Filter by user name', 'All Users');
    await choose('Filter by level', 'Level 2');
    await settled();
    const levelTwo = await api<{ total: number }>('/users/getAllusers?level=2&limit=1');
    await page.getByText(`Total Users: ${levelTwo.total}`).waitFor();
    const levels = await tableRows().evaluateAll((rows) => rows.map((r) => (r as HTMLTableRowElement).cells[7].textContent));
    expect(levels.length).toBeGreaterThan(0);
    expect(new Set(levels)).toEqual(new Set(['2']));
    await choose('Filter by rank', 'Gold');
    await settled();
    const goldLevelTwo = await api<{ total: number }>('/users/getAllusers?level=2&rankId=100003&limit=1');
    await page.getByText(`Total Users: ${goldLevelTwo.total}`).waitFor();
    await expect(select('Filter by rank').inputValue()).resolves.toBe('Gold');
  });

  it('views a member\'s bank details', async () => {
    const { data } = await api<{ data: { userId: number; accountNumber: string }[] }>('/banks/getAllBanks?limit=1');
    const { user } = await api<{ user: ApiUser }>(`/users/updateByUserId/${data[0].userId}`);
    await page.goto(`${journey.server.url}/bank`);
    await page.getByRole('heading', { name: 'Bank Details' }).waitFor();
    await page.getByRole('textbox', { name: 'Find a member' }).fill(String(user.userId));
    // The search is debounced: wait until only the member's own row is left.
    await expect.poll(() => page.getByRole('table', { name: 'Members' }).locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: `View Bank Details of ${user.fullName}` }).click();
    const modal = page.getByRole('dialog');
    await modal.getByText('Account #1').waitFor();
    // Shown masked: all but the last four digits hidden.
    await modal.getByText(`${'X'.repeat(data[0].accountNumber.length - 4)}${data[0].accountNumber.slice(-4)}`).waitFor();
    await modal.getByText('Primary Account').first().waitFor();
  });

  it('filters memberships by date', async () => {
    await page.goto(`${journey.server.url}/membership`);
    await page.getByRole('columnheader', { name: 'Date Time' }).waitFor();
    const all = await api<{ total: number; data: { fullName: string }[] }>('/users/membership?limit=1');
    expect(all.total).toBeGreaterThan(0);
    await page.getByRole('cell', { name: all.data[0].fullName }).first().waitFor();
    await page.getByLabel('From', { exact: true }).fill('2001-01-01');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('Please select both from and to dates').waitFor();
    await page.getByLabel('To', { exact: true }).fill('2001-12-31');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No users found').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('cell', { name: all.data[0].fullName }).first().waitFor();
  });

  it('shows a member\'s amount history on membership version A', async () => {
    const { data } = await api<{ data: { fullName: string; userId: number }[] }>('/users/membership?limit=1');
    const history = await fetch(`${journey.server.url}/api/users/walletHistory?transactionType=dailyPayout&userId=${data[0].userId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await page.goto(`${journey.server.url}/test/membership`);
    await page.getByRole('button', { name: `View Amount History of ${data[0].fullName}` }).first().click();
    const modal = page.getByRole('dialog');
    if (history.status === 200) {
      const body = (await history.json()) as { history: unknown[] };
      await modal.getByText(`Payment History (${body.history.length} transactions)`).waitFor();
    } else {
      await modal.getByText(/^Failed to load user amount history: /).waitFor();
    }
  });
  it('issue 15: sorts the users list by name, filters by level, and a reload shows the same view', async () => {
    await page.goto(`${journey.server.url}/users`);
    await settled();
    const nameHeader = page.getByRole('columnheader', { name: /^Name/ });
    await nameHeader.getByRole('button').click();
    await expect.poll(() => nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await choose('Filter by level', 'Level 2');
    await expect.poll(() => page.evaluate(() => location.search)).toMatch(/level=2/);
    await settled();
    const view = async () => {
      await expect.poll(() => page.locator('table[aria-busy]').count()).toBe(0);
      return tableRows().evaluateAll((rows) => rows.map((r) => [(r as HTMLTableRowElement).cells[2].innerText.replace(/\s*Downline$/, ''), (r as HTMLTableRowElement).cells[7].innerText]));
    };
    const before = await view();
    expect(before.length).toBeGreaterThan(1);
    expect(new Set(before.map(([, level]) => level))).toEqual(new Set(['2']));
    const names = before.map(([name]) => name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(new URL(page.url()).searchParams.get('sort')).toBe('fullName');

    await page.reload();
    await settled();
    await expect.poll(() => page.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('ascending');
    await expect(select('Filter by level').inputValue()).resolves.toBe('Level 2');
    expect(await view()).toEqual(before);
  });

  it('issue 15 item 3: a long name keeps the Status column in view and its badge whole at 1400 px', async () => {
    const add = async (fullName: string, n: number) => {
      const res = await fetch(`${journey.server.url}/api/users/register`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fullName, dob: '1990-01-01', email: `long${n}@test.local`, phone: `90909090${n}0` }),
      });
      expect(res.status).toBe(201);
    };
    await add(`Long ${'Name'.repeat(12)} ${'x'.repeat(37)}`.slice(0, 55), 1);
    await add(`Very ${'Longname '.repeat(11)}`.padEnd(100, 'z').slice(0, 100), 2);
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${journey.server.url}/users`);
    await settled();
    const width = 1400;
    for (const row of [tableRows().nth(0), tableRows().nth(1)]) {
      const status = row.locator('td').nth(6);
      const statusBox = (await status.boundingBox())!;
      expect(statusBox.x + statusBox.width).toBeLessThanOrEqual(width);
      const badge = status.locator('.mantine-Badge-label');
      expect(await badge.innerText()).toBe('ACTIVE');
      expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      for (const cell of [7, 8]) {
        const box = (await row.locator('td').nth(cell).boundingBox())!;
        expect(box.x + box.width, `column ${cell}`).toBeLessThanOrEqual(width);
      }
    }
    // The cut name takes keyboard focus and shows itself whole, on focus and on hover; an uncut
    // email does neither (the tooltips are made only while pointed at or focused).
    const longName = `Very ${'Longname '.repeat(11)}`.padEnd(100, 'z').slice(0, 100);
    const cutName = tableRows().locator('td').nth(2).locator('p').filter({ hasText: /^Very Longname/ }).first();
    await expect.poll(() => cutName.getAttribute('tabindex')).toBe('0');
    expect(await page.getByRole('tooltip').count()).toBe(0);
    await cutName.focus();
    await expect.poll(() => page.getByRole('tooltip').innerText()).toBe(longName.trim());
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('tooltip').count()).toBe(0);
    await cutName.blur();
    await cutName.hover();
    await expect.poll(() => page.getByRole('tooltip').innerText()).toBe(longName.trim());
    const email = tableRows().nth(0).locator('td').nth(3).locator('p');
    expect(await email.getAttribute('tabindex')).toBeNull();
    await email.hover();
    await expect.poll(() => page.getByRole('tooltip').count()).toBe(0);
    // A row action says what it does on keyboard focus too.
    await page.keyboard.press('Escape');
    await tableRows().nth(0).getByRole('button', { name: /^Edit / }).focus();
    await expect.poll(() => page.getByRole('tooltip').innerText()).toBe('Edit');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('tooltip').count()).toBe(0);
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('issue 24: `/` focuses the search; bulk deactivate then activate two members, each ending with its summary', async () => {
    await page.goto(`${journey.server.url}/users`);
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    await settled();
    await page.getByRole('heading', { name: 'User Management' }).click();
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return el?.tagName === 'INPUT' ? `${el.getAttribute('aria-label') ?? ''} ${el.placeholder ?? ''}` : '';
    })).toMatch(/search/i);
    await page.keyboard.press('Escape');

    const boxes = [tableRows().nth(0).getByRole('checkbox'), tableRows().nth(1).getByRole('checkbox')];
    const labels = await Promise.all(boxes.map((b) => b.getAttribute('aria-label')));
    // Cells: the checkbox, S.No, Name, Email.
    const emails = await Promise.all([0, 1].map(async (i) => (await tableRows().nth(i).locator('td').nth(3).innerText()).trim()));
    const statusOf = async (email: string) => (await api<{ users: { email: string; status: boolean }[] }>(
      `/users/getAllusers?search=${encodeURIComponent(email)}&limit=5`)).users.find((u) => u.email === email)?.status;
    for (const [action, status] of [['Deactivate', false], ['Activate', true]] as const) {
      for (const label of labels) await page.getByRole('checkbox', { name: label! }).check();
      const bar = page.getByRole('region', { name: 'Bulk actions on users' });
      await bar.getByText('2 selected').waitFor();
      await bar.getByRole('button', { name: action, exact: true }).click();
      const confirm = page.getByRole('dialog', { name: `${action} members` });
      await confirm.getByRole('button', { name: action, exact: true }).click();
      const summary = page.getByRole('dialog', { name: `${action} 2 members` });
      await summary.getByText('2 succeeded, 0 did not').waitFor();
      await summary.getByRole('button', { name: 'Done' }).click();
      await summary.waitFor({ state: 'hidden' });
      await expect.poll(async () => Promise.all(emails.map(statusOf))).toEqual([status, status]);
    }
  });
});
