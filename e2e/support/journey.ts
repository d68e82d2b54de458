import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

export interface Journey {
  /** Set before the file's first test (read them inside hooks and tests, not at load). */
  readonly server: RunningServer;
  readonly browser: Browser;
}

/** The real server on a fresh database and a Chromium, started before a journey file's tests and closed after them. */
export function serverAndBrowser(): Journey {
  const journey = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    journey.server = await startServer();
    journey.browser = await launchBrowser();
  });
  afterAll(async () => {
    await journey.browser?.close();
    await journey.server?.cleanUp();
  });
  return journey;
}

/** GET an API path with a bearer token; it must answer 200. */
export async function getJson<T>(baseUrl: string, token: string, path: string): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

/** A member's wallet balance, in rupees. */
export async function walletBalance(baseUrl: string, token: string, userId: number): Promise<number> {
  return (await getJson<{ data: { balance: number } }>(baseUrl, token, `/wallet/balance/${userId}`)).data.balance;
}

/** yyyy-mm-dd of today shifted by `days`, in the browser's (and server's) local calendar. */
export function isoDay(days: number): string {
  const d = new Date(Date.now() + days * 86400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** yyyy-mm-dd as the API's filters take it: dd-mm-yyyy. */
export const wire = (iso: string) => iso.split('-').reverse().join('-');
