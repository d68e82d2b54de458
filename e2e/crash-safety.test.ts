import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../src/server/db/client.ts';
import { ledgerProblems, moneyRequests, send, type FailedPayout, type MoneyRequest } from './support/money-traffic.ts';
import { adminLogin, createPostgresDatabase, E2E_ADMIN, startServer, type RunningServer } from './support/server.ts';

/**
 * Crash safety: wallet recharges and payout payments stream in with Idempotency-Keys, the server
 * is killed with SIGKILL mid-stream (CRASH_ROUNDS times, default 2), restarted on the same data,
 * and every request is retried with its key. Every request answered 2xx must be in the ledger
 * exactly once under the id it was answered with, no payout half-paid, balances = ledger sums.
 */
const ROUNDS = Number(process.env.CRASH_ROUNDS) || 2;
/**
 * About twelve ₹1,000 recharges per member and round: above the ₹10,000 one operator may move for
 * one member in a day without a checker (issue 22), which this test is not about: every request moves.
 */
const MONEY_ENV = { APPROVAL_THRESHOLD: '100000000' };
const PER_ROUND = Number(process.env.CRASH_REQUESTS) || 240;
const CONCURRENCY = 12;

interface Storage {
  name: 'PGlite directory' | 'PostgreSQL';
  start(): Promise<RunningServer>;
  open(): Promise<Database>;
  cleanUp(): Promise<void>;
}

function pgliteStorage(): Storage {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-crash-'));
  return {
    name: 'PGlite directory',
    start: () => startServer({ dataDir: dir, env: MONEY_ENV }),
    open: () => openPglite(dir),
    cleanUp: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresStorage(): Promise<Storage> {
  const created = await createPostgresDatabase();
  return {
    name: 'PostgreSQL',
    start: () => startServer({ databaseUrl: created.url, env: MONEY_ENV }),
    open: () => openPostgres(created.url, 2),
    cleanUp: created.drop,
  };
}

async function api<T>(server: RunningServer, token: string, url: string): Promise<T> {
  const res = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function signIn(server: RunningServer): Promise<string> {
  return (await adminLogin(server.url)).token;
}

const wire = (d: Date) => `${String(d.getDate()).padStart(2, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${d.getFullYear()}`;

/** Drives the requests with a few concurrent senders and SIGKILLs the server once `killAfter` are answered. */
async function driveAndKill(server: RunningServer, token: string, requests: MoneyRequest[], killAfter: number) {
  let next = 0;
  let answered = 0;
  let killed: Promise<unknown> | null = null;
  const worker = async () => {
    while (next < requests.length && !killed) {
      const r = requests[next++];
      const result = await send(server.url, token, r);
      if (!result) {
        r.lost = true;
        continue;
      }
      r.status = result.status;
      if (result.status < 300) r.transactionId = result.transactionId;
      answered += 1;
      if (answered >= killAfter && !killed) killed = server.kill('SIGKILL');
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await (killed ?? server.kill('SIGKILL'));
}

const storages: Storage[] = [];
afterAll(async () => {
  for (const s of storages) await s.cleanUp();
});

const kinds: (() => Promise<Storage>)[] = [async () => pgliteStorage()];
if (process.env.TEST_DATABASE_URL) kinds.push(postgresStorage);

describe('crash safety: SIGKILL in the middle of money traffic loses and doubles nothing', () => {
  it.each(kinds.map((make, i) => [i === 0 ? 'PGlite directory' : 'PostgreSQL', make] as const))('on %s', async (_name, make) => {
    const storage = await make();
    storages.push(storage);
    let server = await storage.start();
    let token = await signIn(server);
    const members = await api<{ data: { userId: number }[] }>(server, token, '/api/wallet/balances?limit=41');
    // Nobody moves money on their own wallet (issue 13): leave the signed-in administrator out.
    const me = await api<{ data: { userId: number } }>(server, token, '/api/users/me');
    const memberIds = members.data.map((m) => m.userId).filter((id) => id !== me.data.userId).slice(0, 40);
    const today = new Date();
    const from = new Date(Date.now() - 60 * 86400_000);
    const failed = await api<{ data: FailedPayout[] }>(server, token,
      `/api/wallets/dailyPayout?fromDate=${wire(from)}&toDate=${wire(today)}&status=Failure&limit=500`);
    const db0 = await fetch(`${server.url}/api/health`);
    expect(db0.status).toBe(200);

    const all: MoneyRequest[] = [];
    const started = new Date(Date.now() - 1000).toISOString();
    let faults = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const payouts = failed.data.slice(round * 30, round * 30 + 30);
      const requests = moneyRequests(memberIds, payouts, PER_ROUND, round * PER_ROUND);
      all.push(...requests);
      await driveAndKill(server, token, requests, Math.floor(PER_ROUND * 0.4));
      faults += 1;
      server = await storage.start();
      token = await signIn(server);
    }

    // Retry every request with its key: answered ones must replay, lost ones complete now.
    const answeredBefore = all.filter((r) => r.transactionId !== undefined);
    let committedUnanswered = 0;
    for (const r of all) {
      const result = await send(server.url, token, r);
      expect(result, `retry of ${r.key}`).not.toBeNull();
      expect(result!.status, `retry of ${r.key}: ${JSON.stringify(r.body)}`).toBe(200);
      if (r.transactionId !== undefined) {
        expect(result!.replayed, `retry of answered ${r.key} must replay`).toBe(true);
        expect(result!.transactionId).toBe(r.transactionId);
      }
      if (r.lost && result!.replayed) committedUnanswered += 1;
      r.transactionId = result!.transactionId;
    }
    const lost = all.filter((r) => r.lost).length;
    const output = server.output();
    await server.stop();

    const database = await storage.open();
    try {
      expect(await ledgerProblems(database, all, started)).toEqual([]);
    } finally {
      await database.close();
    }
    // Nothing secret in the server's log lines either.
    expect(output).not.toContain(E2E_ADMIN.password);
    expect(output).not.toContain(token);
    console.info(`crash [${storage.name}]: ${all.length} money requests, ${faults} SIGKILLs, ${answeredBefore.length} answered 2xx before the kills, ${lost} cut off in flight (${committedUnanswered} of them had committed and were replayed on retry); after restart and retry every one is in the ledger exactly once`);
  }, 300_000);
});
