import { chromiumPath, launchBrowser } from '../e2e/support/browser.ts';
import { E2E_ADMIN } from '../e2e/support/server.ts';

export interface PanelTiming {
  firstRowsMs: number;
  nextPageMs: number;
  levelFilterMs: number;
}

/**
 * The users page in Chromium against the seeded database: time from navigation to the first
 * rows, to the next page, and to a level filter's rows. Null when no Chromium is installed.
 */
export async function measureUsersPage(baseUrl: string): Promise<PanelTiming | null> {
  if (!chromiumPath) return null;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/signin`);
    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    await page.getByLabel(/^Password/).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Access Portal' }).click();
    await page.waitForURL(`${baseUrl}/`);
    const table = page.getByRole('table', { name: 'Users' });
    const firstRow = () => table.locator('tbody tr').first().locator('td').nth(1).innerText();

    // In-app navigation, as an operator moves between screens (a full page load adds the
    // spec's 500 ms 'Loading dashboard...' screen on top).
    await page.getByRole('link', { name: 'Users', exact: true }).waitFor();
    let started = Date.now();
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await table.locator('tbody tr td').first().waitFor();
    await page.waitForFunction(() => !document.querySelector('table [class*="Skeleton"]'));
    const firstRowsMs = Date.now() - started;

    const before = await firstRow();
    started = Date.now();
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.waitForFunction(
      (text) => document.querySelector('table tbody tr td:nth-child(2)')?.textContent !== text,
      before,
    );
    const nextPageMs = Date.now() - started;

    const paged = await firstRow();
    started = Date.now();
    await page.getByLabel('Filter by level').first().click();
    await page.getByRole('option', { name: 'Level 5', exact: true }).click();
    await page.waitForFunction(
      (text) => document.querySelector('table tbody tr td:nth-child(2)')?.textContent !== text,
      paged,
    );
    const levelFilterMs = Date.now() - started;
    return { firstRowsMs, nextPageMs, levelFilterMs };
  } finally {
    await browser.close();
  }
}
