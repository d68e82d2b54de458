import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEntry } from '../../../db/books.ts';
import { moneyInvariantViolations } from '../../../lib/money-invariants.ts';
import { createTestApp, type TestContext } from '../../../test/harness.ts';
import { moneyHeaders } from '../../wallet/money-test-kit.ts';
import { configureRuns, runsSettled, runToEnd } from './engine.ts';
import { addDays, member, membership, settingsFrom, today } from './payout-test-kit.ts';

/**
 * Issue 22, "a day is paid once, net", as a property (fast-check) against a model written here:
 * random sequences of run a day / spend / reverse a day's run / credit over a few members, where
 * running a reversed day again is a re-run. After every step the database is the model (balances,
 * recovery owed, each shortfall's recovered part), no balance is negative, recovery owed equals the
 * shortfalls less what was recovered, and per member and day the net of that day's runs, their
 * reversals and the recoveries of their shortfalls, less what is still owed for them, is that
 * day's pay when a run of the day stands and nothing otherwise: never more than one day's pay.
 * Each case has its own members and days, retired at its end; runs go in chunks of 2.
 */

let t: TestContext;
let token: string;
let now: string;
let caseNo = 0;
beforeAll(async () => {
  t = await createTestApp({ config: { approvalThresholdPaise: 1_000_000_000_000 } });
  token = await t.login();
  now = await today(t.database);
  await settingsFrom(t.database, addDays(now, -9_000), { tdsPercent: 5, adminChargePercent: 5, payOnWeekends: true });
  configureRuns(t.database, { chunkSize: 2 });
});
afterAll(() => t.close());

type Step =
  | { type: 'run'; day: number }
  | { type: 'reverse'; day: number }
  | { type: 'spend'; who: number; part: number }
  | { type: 'credit'; who: number; paise: number };

const DAYS = 3;
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constant('run' as const), day: fc.integer({ min: 0, max: DAYS - 1 }) }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('reverse' as const), day: fc.integer({ min: 0, max: DAYS - 1 }) }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('spend' as const), who: fc.nat(), part: fc.constantFrom(0.5, 1) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('credit' as const), who: fc.nat(), paise: fc.integer({ min: 1, max: 3_000 }) }) },
);

interface Shortfall { runId: number; day: number; amount: number; recovered: number }
interface Model { userId: number; gross: number; tds: number; admin: number; net: number; balance: number; shortfalls: Shortfall[] }

const owedOf = (m: Model) => m.shortfalls.reduce((s, f) => s + f.amount - f.recovered, 0);

/** A credit of `paise` to a member who owes: least(owed, credit) settles the oldest shortfalls first. */
function settle(m: Model, paise: number) {
  let take = Math.min(owedOf(m), paise);
  m.balance -= take;
  for (const f of m.shortfalls) {
    const part = Math.min(take, f.amount - f.recovered);
    f.recovered += part;
    take -= part;
  }
}

describe('run / spend / reverse / re-run in random order (issue 22)', () => {
  it('no member ever nets more than one day\u2019s pay for a day; balances never negative; recovery owed = shortfalls − recovered', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.integer({ min: 100, max: 5_000 }), { minLength: 1, maxLength: 3 }),
      fc.array(step, { minLength: 2, maxLength: 9 }),
      async (dailies, steps) => {
        caseNo += 1;
        const base = addDays(now, -8_000 + caseNo * (DAYS + 2));
        const members: Model[] = [];
        const membershipIds: number[] = [];
        for (const gross of dailies) {
          const userId = await member(t.database, { name: 'Recovery Property' });
          membershipIds.push(await membership(t.database, userId, { dailyPaise: gross, capPaise: 100_000_000, durationDays: 30, startsOn: base }));
          const tds = Math.floor((gross * 500) / 10_000);
          const admin = Math.floor((gross * 500) / 10_000);
          members.push({ userId, gross, tds, admin, net: gross - tds - admin, balance: 0, shortfalls: [] });
        }
        const userIds = members.map((m) => m.userId);
        const standing = new Map<number, number>(); // day → its standing run
        const runsOfDay = new Map<number, number[]>(); // day → every run of it, reversed or not

        for (const s of steps) {
          if (s.type === 'run') {
            const run = await runToEnd(t.database, { kind: 'daily_payout', day: addDays(base, s.day), startedBy: null, rerunApproved: true });
            expect(run.status).toBe('completed');
            if (standing.has(s.day)) {
              expect(run.runId).toBe(standing.get(s.day)); // exactly once: the standing run, nothing moves
            } else {
              standing.set(s.day, run.runId);
              runsOfDay.set(s.day, [...(runsOfDay.get(s.day) ?? []), run.runId]);
              for (const m of members) {
                m.balance += m.net;
                settle(m, m.net);
              }
            }
          } else if (s.type === 'reverse') {
            const runId = standing.get(s.day);
            if (runId === undefined) continue;
            const res = await t.app.inject({
              method: 'POST', url: `/api/income/runs/${runId}/reverse`, headers: moneyHeaders(token, randomUUID()), payload: { remarks: 'Property' },
            });
            expect(res.statusCode, res.body).toBe(200);
            await runsSettled(t.database); // a reversal that did not fit the request goes on in the background
            expect((await t.database.query<{ status: string }>('select status from income_runs where run_id = $1', [runId]))[0].status).toBe('reversed');
            standing.delete(s.day);
            for (const m of members) {
              // Debits given back in full, the credit taken back as far as balance + debits covers.
              const takeable = Math.min(m.gross, m.balance + m.tds + m.admin);
              m.balance += m.tds + m.admin - takeable;
              if (m.gross > takeable) m.shortfalls.push({ runId, day: s.day, amount: m.gross - takeable, recovered: 0 });
            }
          } else if (s.type === 'spend') {
            const m = members[s.who % members.length];
            const amount = Math.floor(m.balance * s.part);
            if (amount > 0) {
              await postEntry(t.database.db, { userId: m.userId, kind: 'wallet_withdrawal', amountPaise: -amount, description: 'Spent (property)' });
              m.balance -= amount;
            }
          } else {
            const m = members[s.who % members.length];
            const posted = await postEntry(t.database.db, { userId: m.userId, kind: 'wallet_recharge', amountPaise: s.paise, description: 'Credit (property)' });
            m.balance += s.paise;
            settle(m, s.paise);
            expect(posted.balancePaise).toBe(m.balance); // the answer is after the recovery
          }

          // The database is the model.
          const rows = await t.database.query<{ user_id: string; balance: string; owed: string }>(
            'select user_id::text, balance_paise::text as balance, recovery_paise::text as owed from users where user_id = any($1::int8[]) order by user_id',
            [userIds]);
          expect(rows.map((r) => [Number(r.user_id), Number(r.balance), Number(r.owed)])).toEqual(
            [...members].sort((a, b) => a.userId - b.userId).map((m) => [m.userId, m.balance, owedOf(m)]));
          for (const r of rows) expect(Number(r.balance)).toBeGreaterThanOrEqual(0);
          const falls = await t.database.query<{ run_id: string; user_id: string; amount: string; recovered: string }>(
            `select run_id::text, user_id::text, shortfall_paise::text as amount, recovered_paise::text as recovered
               from run_shortfalls where user_id = any($1::int8[]) order by user_id, run_id`, [userIds]);
          expect(falls.map((f) => [Number(f.user_id), Number(f.run_id), Number(f.amount), Number(f.recovered)])).toEqual(
            [...members].sort((a, b) => a.userId - b.userId).flatMap((m) =>
              [...m.shortfalls].sort((a, b) => a.runId - b.runId).map((f) => [m.userId, f.runId, f.amount, f.recovered])));

          // A day is paid once, net, read off the database alone: per member and day, the lines of
          // every run of the day (credits, deductions, reversals) less what was recovered of their
          // shortfalls and less what is still owed for them.
          const nets = await t.database.query<{ user_id: string; run_id: string; net: string }>(`
            select u.user_id::text, r.run_id::text,
                   (coalesce((select sum(amount_paise) from ledger_entries l where l.user_id = u.user_id and l.run_id = r.run_id), 0)
                    - coalesce((select shortfall_paise from run_shortfalls f where f.user_id = u.user_id and f.run_id = r.run_id), 0))::text as net
              from unnest($1::int8[]) as u(user_id) cross join unnest($2::int8[]) as r(run_id)`,
          [userIds, [...runsOfDay.values()].flat()]);
          for (const m of members) {
            for (const [day, runIds] of runsOfDay) {
              const net = nets.filter((n) => Number(n.user_id) === m.userId && runIds.includes(Number(n.run_id)))
                .reduce((sum, n) => sum + Number(n.net), 0);
              expect(net, `member ${m.userId}, day ${day}`).toBe(standing.has(day) ? m.net : 0);
              expect(net).toBeLessThanOrEqual(m.net);
            }
          }
          expect(await moneyInvariantViolations(t.database)).toEqual([]);
        }
        await t.database.query(`update memberships set status = 'completed' where id = any($1::int[])`, [membershipIds]);
      },
    ), { numRuns: 15 });
  }, 180_000);
});
