import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumPath } from './support/browser.ts';
import { serverAndBrowser } from './support/journey.ts';
import {
  MAIN_SCREENS, memberWithNetwork, openScreen, PUBLIC_SCREENS, settled, signIn, TEST_SCREENS, transitionsDone, type Screen,
} from './support/screens.ts';

const axeSource: string = createRequire(import.meta.url)('axe-core').source;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core in the page; the serious and critical violations, each with where it was found. */
async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const found = await page.evaluate(async () => {
    const run = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: unknown[] }> } }).axe.run;
    return (await run(document, { resultTypes: ['violations'] })).violations as {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: string[]; failureSummary?: string }[];
    }[];
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`) }));
}

async function expectAccessible(page: Page, where: string) {
  expect(await axeViolations(page), where).toEqual([]);
}

/** Opens the screen's modal, checks it with axe, and closes it with Escape. */
async function checkModal(page: Page, screen: Screen) {
  if (!screen.modal) return;
  await page.getByRole('button', { name: screen.modal.button }).first().click();
  const dialog = page.getByRole('dialog', { name: screen.modal.dialog });
  await dialog.waitFor();
  await transitionsDone(page, dialog);
  await settled(page);
  await expectAccessible(page, `${screen.path} with its dialog open`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

describe.skipIf(!chromiumPath)('accessibility: axe-core on every screen in Chromium', () => {
  const journey = serverAndBrowser();
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // The panel's CSP (script-src 'self') would refuse axe's injected script.
    context = await journey.browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    page = await context.newPage();
  });

  it('finds no serious or critical violation on the public screens', async () => {
    for (const screen of PUBLIC_SCREENS) {
      await openScreen(page, journey.server.url, screen);
      await expectAccessible(page, screen.path);
    }
  });

  it('finds none on every main screen, with a dialog of each open where there is one', async () => {
    await signIn(page, journey.server.url);
    for (const screen of MAIN_SCREENS) {
      await openScreen(page, journey.server.url, screen);
      await expectAccessible(page, screen.path);
      await checkModal(page, screen);
    }
  });

  it('finds none on the member page with the genealogy opened, nor in the header search', async () => {
    const token = (await page.evaluate(() => localStorage.getItem('authToken')))!;
    const member = await memberWithNetwork(journey.server.url, token);
    await openScreen(page, journey.server.url, { path: `/users/${member.userId}`, heading: member.fullName });
    await page.getByRole('button', { name: /^Expand / }).first().click();
    await settled(page);
    await expectAccessible(page, 'member page');

    const search = page.getByRole('combobox', { name: 'Search members' });
    await search.fill(member.fullName.split(' ')[0]);
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    await expectAccessible(page, 'header search with results');
    await page.keyboard.press('Escape');
  });

  it('finds none on every /test/* screen', async () => {
    for (const screen of TEST_SCREENS) {
      await openScreen(page, journey.server.url, screen);
      await expectAccessible(page, screen.path);
      await checkModal(page, screen);
    }
  });

  it('finds none in the dark color scheme either', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      for (const screen of [MAIN_SCREENS[0], MAIN_SCREENS[1], MAIN_SCREENS[14]]) {
        await openScreen(page, journey.server.url, screen);
        expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
        await expectAccessible(page, `${screen.path} (dark)`);
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('keeps the focus inside a modal and closes it on Escape', async () => {
    await openScreen(page, journey.server.url, MAIN_SCREENS[1]);
    const opener = page.getByRole('button', { name: 'Add User' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.waitFor();
    await transitionsDone(page, dialog);
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
      const inside = await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));
      expect(inside, `focus left the dialog after ${i + 1} presses`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(false);
  });
});
