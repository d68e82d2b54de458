import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (or CHROMIUM_PATH). Never downloaded. */
export function findChromium(): string | undefined {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => !!p && fs.existsSync(p),
  );
}

export const chromiumPath = findChromium();

if (!chromiumPath) {
  const message =
    'E2E SKIPPED: no Chromium found (install Debian\'s "chromium" package or set CHROMIUM_PATH); ' +
    'the browser journeys in e2e/ did not run.';
  if (process.env.CI) throw new Error(`${message} CI must run them.`);
  console.warn(`\n*** ${message} ***\n`);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
    ],
  });
}
