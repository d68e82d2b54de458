import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { openPglite, openPostgres, type Database } from '../../src/server/db/client.ts';
import { launchBrowser } from './browser.ts';
import { createPostgresDatabase, startServer, type RunningServer } from './server.ts';

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

/** A journey on a database of its own, which it may also work on directly with the server stopped. */
export interface OwnDatabaseJourney extends Journey {
  /**
   * Stops the server, hands its database to `work` (a PGlite directory has one owner at a time),
   * then starts the server again — on another port: read `server.url` afresh afterwards.
   */
  offline(work: (database: Database) => Promise<void>): Promise<void>;
}

/**
 * The real server on a database of the journey's own — a PGlite directory, or a PostgreSQL
 * database when TEST_DATABASE_URL is set — started with `env` (after the journey defaults), and a
 * Chromium. `prepare` runs on the database once, before the browser starts (accounts, members).
 */
export function ownDatabaseJourney(
  name: string, env: Record<string, string> = {}, prepare?: (database: Database) => Promise<void>,
): OwnDatabaseJourney {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `backoffice-${name}-`));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  const start = () => startServer({ ...(databaseUrl ? { databaseUrl } : { dataDir }), env });
  const journey = {
    offline: async (work: (database: Database) => Promise<void>) => {
      await journey.server.stop();
      const database = databaseUrl ? await openPostgres(databaseUrl, 2) : await openPglite(dataDir);
      try {
        await work(database);
      } finally {
        await database.close();
      }
      journey.server = await start();
    },
  } as OwnDatabaseJourney & { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    if (process.env.TEST_DATABASE_URL) {
      const created = await createPostgresDatabase();
      databaseUrl = created.url;
      dropDatabase = created.drop;
    }
    journey.server = await start();
    if (prepare) await journey.offline(prepare);
    journey.browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await journey.browser?.close();
    await journey.server?.cleanUp();
    await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
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
