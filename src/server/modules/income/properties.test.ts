import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEntry } from '../../db/books.ts';
import { moneyInvariantViolations } from '../../lib/money-invariants.ts';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';
import { moneyHeaders } from '../wallet/money-test-kit.ts';
import { configureRuns, runsSettled } from './runs/engine.ts';
import { approveFiled } from './income-test-kit.ts';
import { checkerOf, membership, runDay, settingsFrom, wire } from './runs/payout-test-kit.ts';
import { addDays, istToday } from './settings.ts';

/**
 * Property tests of the income engine (issue 16, "Done when"), with fast-check: random trees,
 * plans, settings and sequences of runs, reversals and spending, each checked against a small model
 * written here (the rules of the brief, not the engine's code) and against the engine's promises:
 * no member is paid twice for a period, caps are never exceeded, a run's totals are the sum of its
 * ledger lines, a reversal gives back exactly what the run moved (what a spent balance no longer
 * covers is a shortfall, never a negative balance), and the money invariants hold after every step.
 *
 * One database for the file; each case works on its own members and its own days (a window of
 * days far in the past, different for every case) and retires its memberships at its end, so the
 * cases never see each other's work. Runs go in chunks of 3 to cross chunk borders.
 */

let t: TestContext;
let token: string;
let today: string;
let caseNo = 0;
let serial = 0;

beforeAll(async () => {
  // Four eyes never holds a reversal here (its own tests cover the 202).
  // Random plans (a fixed ₹1 a day on prices from ₹0.01): no deployment bound on what a plan pays (issue 22).
  t = await createTestApp({
    config: { approvalThresholdPaise: 1_000_000_000_000, bounds: { capMultiple: 1_000, dailyPercent: 1_000_000, levelIncomePercent: 100, tdsMinPercent: 0 } },
  });
  token = await t.login();
  today = await istToday(t.database.db);
  configureRuns(t.database, { chunkSize: 3 });
});
afterAll(() => t.close());

async function newMember(referredBy: number | null, o: { status?: boolean; deleted?: boolean } = {}) {
  serial += 1;
  const stamp = `${process.pid}${serial}`.padStart(9, '0').slice(-9);
  const user = await insertUser(t.database.db, {
    fullName: `Property ${serial}`, email: `prop${serial}-${stamp}@test.local`, phone: `6${stamp}`, level: 1, referredBy,
  });
  if (o.status === false) await t.database.query('update users set status = false where user_id = $1', [user.userId]);
  if (o.deleted) await t.database.query('update users set deleted_at = now() where user_id = $1', [user.userId]);
  return user.userId;
}

async function balances(userIds: number[]): Promise<Map<number, number>> {
  const rows = await t.database.query<{ user_id: string; balance: string }>(
    'select user_id::text, balance_paise::text as balance from users where user_id = any($1::int8[])', [userIds]);
  return new Map(rows.map((r) => [Number(r.user_id), Number(r.balance)]));
}

/** The promises that hold whatever happened before: checked after every step of every case. */
async function engineInvariants() {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
  // No member is paid twice for a period: one payout row per member and day; among the runs that
  // stand (not reversed), one credit of each kind per member and period.
  expect(await t.database.query(
    'select user_id, payout_date, count(*)::int as n from daily_payouts where status <> \'Reversed\' group by 1, 2 having count(*) > 1')).toEqual([]);
  expect(await t.database.query(`
    select r.kind, r.period_start::text, l.user_id, l.kind as line, count(*)::int as n
      from ledger_entries l join income_runs r on r.run_id = l.run_id
     where l.reversal_of is null and r.status <> 'reversed'
       and not exists (select 1 from ledger_entries c where c.reversal_of = l.id)
     group by 1, 2, 3, 4 having count(*) > 1`)).toEqual([]);
  // Caps: earned never above the cap, and what the ledger paid in daily payouts never above it either.
  expect(await t.database.query(`select id from memberships where status <> 'legacy' and earned_paise > cap_paise`)).toEqual([]);
  // A shortfall of a reversed daily payout is owed back (issue 22, a recovery): it is not paid.
  expect(await t.database.query(`
    select m.user_id, m.cap_paise::text, s.paid::text from memberships m
      join (select user_id, sum(amount_paise) as paid from ledger_entries where kind = 'daily_payout' group by user_id) s
        on s.user_id = m.user_id
      left join (select f.user_id, sum(f.shortfall_paise) as owed from run_shortfalls f
                   join income_runs r on r.run_id = f.run_id and r.kind = 'daily_payout' group by f.user_id) f on f.user_id = m.user_id
     where m.status <> 'legacy' and s.paid - coalesce(f.owed, 0) > m.cap_paise`)).toEqual([]);
  // A run's totals are the sum of its lines (the original lines, before any reversal; Pay Now is not used here).
  expect(await t.database.query(`
    select r.run_id, r.gross_paise::text, r.deductions_paise::text, r.paid::text, r.failed::text, r.failed_paise::text,
           s.gross::text, s.deductions::text
      from income_runs r
      left join (select run_id,
                        coalesce(sum(amount_paise) filter (where amount_paise > 0), 0) as gross,
                        coalesce(-sum(amount_paise) filter (where amount_paise < 0), 0) as deductions
                   from ledger_entries where reversal_of is null and kind <> 'bank_payout' group by run_id) s on s.run_id = r.run_id
      left join (select run_id, count(*) filter (where status = 'Success') as ok, count(*) filter (where status = 'Failure') as bad,
                        coalesce(sum(amount_paise) filter (where status = 'Failure'), 0) as bad_paise
                   from daily_payouts group by run_id) p on p.run_id = r.run_id
     where r.status in ('completed', 'reversed')
       and (r.gross_paise <> coalesce(s.gross, 0) or r.deductions_paise <> coalesce(s.deductions, 0)
            or (r.kind = 'daily_payout' and r.status = 'completed'
                and (r.paid <> coalesce(p.ok, 0) or r.failed <> coalesce(p.bad, 0) or r.failed_paise <> coalesce(p.bad_paise, 0))))`)).toEqual([]);
}

// ---------------------------------------------------------------- daily payout runs

type Action = { type: 'run'; day: number } | { type: 'reverse'; pick: number } | { type: 'spend'; who: number; part: number };

const memberSpec = fc.record({
  status: fc.constantFrom(true, true, true, false),
  deleted: fc.constantFrom(false, false, false, false, true),
  bank: fc.boolean(),
  daily: fc.integer({ min: 1, max: 5_000 }),
  cap: fc.integer({ min: 1, max: 15_000 }),
  duration: fc.integer({ min: 1, max: 6 }),
  startOffset: fc.integer({ min: -3, max: 6 }),
  earnedPart: fc.constantFrom(0, 0, 0, 0.5, 0.9, 1),
});
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ type: fc.constant('run' as const), day: fc.integer({ min: 0, max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('reverse' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('spend' as const), who: fc.nat(), part: fc.constantFrom(0.5, 1) }) },
);
const percentArb = fc.integer({ min: 0, max: 3_000 }).map((bp) => bp / 100); // 0–30 %, 2 decimals

interface ModelMembership {
  id: number;
  userId: number;
  daily: number;
  cap: number;
  startsOn: string;
  lastDay: string;
  earned: number;
  days: number;
  status: 'active' | 'completed';
}

/** `sent`: paying to bank (issue 25), what went on to the member's bank after the recovery took its part. */
interface Paid { m: ModelMembership; gross: number; tds: number; admin: number; net: number; reason: string | null; sent: number }

describe('daily payout runs, reversals and spending in random order', () => {
  it('pay each membership its day once, within its cap, with totals equal to the lines; a reversal gives back exactly what moved', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(memberSpec, { minLength: 1, maxLength: 7 }),
      fc.record({ tdsPercent: percentArb, adminChargePercent: percentArb, payTo: fc.constantFrom('wallet' as const, 'bank' as const) }),
      fc.array(action, { minLength: 1, maxLength: 7 }),
      async (specs, settings, actions) => {
        caseNo += 1;
        const base = addDays(today, -20_000 + caseNo * 12); // this case's own days: base … base + 9
        await settingsFrom(t.database, base, { ...settings, payOnWeekends: true });
        const tdsBp = Math.round(settings.tdsPercent * 100);
        const adminBp = Math.round(settings.adminChargePercent * 100);

        const users: { userId: number; status: boolean; deleted: boolean; bank: boolean }[] = [];
        const model: ModelMembership[] = [];
        for (const s of specs) {
          const userId = await newMember(null, { status: s.status, deleted: s.deleted });
          if (s.bank) {
            await t.database.query(`insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, is_primary)
              values ($1, 'Prop', $2, 'SBIN0000001', 'SBI', true)`, [userId, `9000${userId}`]);
          }
          const startsOn = addDays(base, s.startOffset);
          const earned = Math.floor(s.cap * s.earnedPart);
          const id = await membership(t.database, userId, {
            dailyPaise: s.daily, capPaise: s.cap, durationDays: s.duration, startsOn, earnedPaise: earned,
          });
          users.push({ userId, status: s.status, deleted: s.deleted, bank: s.bank });
          model.push({ id, userId, daily: s.daily, cap: s.cap, startsOn, lastDay: addDays(startsOn, s.duration - 1), earned, days: 0, status: 'active' });
        }
        const userIds = users.map((u) => u.userId);
        const balance = new Map(userIds.map((id) => [id, 0]));
        // What each member owes (issue 22): a reversal's shortfall, settled first from their next payout's net.
        const owed = new Map(userIds.map((id) => [id, 0]));
        const payoutDays = new Set<string>(); // `${userId} ${day}`
        const runs: { runId: number; day: string; paid: Paid[]; reversed: boolean }[] = [];

        for (const a of actions) {
          if (a.type === 'run') {
            const day = addDays(base, a.day);
            const standing = runs.find((r) => r.day === day && !r.reversed);
            const { started, run } = await runDay(t, token, day);
            if (standing) {
              // Exactly once: the period's run is answered, nothing moves.
              expect(started.statusCode).toBe(200);
              expect(run.runId).toBe(standing.runId);
            } else {
              expect(started.statusCode, started.body).toBe(201);
              expect(run.status).toBe('completed');
              // The model: the rules of the brief, one membership at a time.
              const paid: Paid[] = [];
              for (const m of model) {
                if (m.status !== 'active') continue;
                const u = users.find((x) => x.userId === m.userId)!;
                const inWindow = m.startsOn <= day && day <= m.lastDay;
                const eligible = !u.deleted && inWindow && m.earned < m.cap && !payoutDays.has(`${m.userId} ${day}`);
                const gross = Math.max(Math.min(m.daily, m.cap - m.earned), 0);
                const tds = Math.floor((gross * tdsBp) / 10_000);
                const admin = Math.floor((gross * adminBp) / 10_000);
                const net = gross - tds - admin;
                const pays = eligible && net > 0;
                if (pays) {
                  const reason = !u.status ? 'Member is inactive' : settings.payTo === 'bank' && !u.bank ? 'No primary bank account' : null;
                  const p: Paid = { m, gross, tds, admin, net, reason, sent: 0 };
                  paid.push(p);
                  m.earned += gross;
                  m.days += 1;
                  payoutDays.add(`${m.userId} ${day}`);
                  if (reason === null) {
                    const take = Math.min(owed.get(m.userId)!, net);
                    p.sent = settings.payTo === 'bank' ? net - take : 0;
                    balance.set(m.userId, balance.get(m.userId)! + net - take - p.sent);
                    owed.set(m.userId, owed.get(m.userId)! - take);
                  }
                }
                if (pays || day >= m.lastDay) m.status = m.earned >= m.cap || day >= m.lastDay ? 'completed' : 'active';
              }
              runs.push({ runId: run.runId, day, paid, reversed: false });
              const ok = paid.filter((p) => p.reason === null);
              const bad = paid.filter((p) => p.reason !== null);
              const sum = (l: Paid[], f: (p: Paid) => number) => l.reduce((s, p) => s + f(p), 0);
              expect(run.totals).toMatchObject({
                paid: ok.length, failed: bad.length,
                gross: sum(ok, (p) => p.gross) / 100, deductions: sum(ok, (p) => p.tds + p.admin) / 100,
                net: sum(ok, (p) => p.net) / 100, failedAmount: sum(bad, (p) => p.net) / 100,
              });
              // Its lines, member by member: +gross, −tds, −admin (each only when not 0), and paying to bank what was sent.
              const lines = await t.database.query<{ user_id: string; kind: string; amount: string }>(
                'select user_id::text, kind, amount_paise::text as amount from ledger_entries where run_id = $1 and user_id = any($2::int8[]) order by user_id, id',
                [run.runId, userIds]);
              expect(lines.map((l) => [Number(l.user_id), l.kind, Number(l.amount)])).toEqual(
                [...ok].sort((x, y) => x.m.userId - y.m.userId).flatMap((p) => [
                  [p.m.userId, 'daily_payout', p.gross], [p.m.userId, 'tds', -p.tds], [p.m.userId, 'admin_charge', -p.admin],
                  [p.m.userId, 'bank_payout', -p.sent],
                ].filter((l) => l[2] !== 0)));
            }
          } else if (a.type === 'spend') {
            const userId = userIds[a.who % userIds.length];
            const amount = Math.floor(balance.get(userId)! * a.part);
            if (amount > 0) {
              await postEntry(t.database.db, { userId, kind: 'wallet_withdrawal', amountPaise: -amount, description: 'Spent (property test)' });
              balance.set(userId, balance.get(userId)! - amount);
            }
          } else {
            const standing = runs.filter((r) => !r.reversed);
            if (standing.length === 0) continue;
            const r = standing[a.pick % standing.length];
            const before = await balances(userIds);
            const res = await t.app.inject({
              method: 'POST', url: `/api/income/runs/${r.runId}/reverse`, headers: moneyHeaders(token, randomUUID()),
              payload: { remarks: 'Property test reversal' },
            });
            expect(res.statusCode, res.body).toBe(200);
            r.reversed = true;
            // Per member: the debits come back in full (what was sent to the bank too: no batch holds
            // it here), the credits go back as far as the balance then covers (balance + debits); the rest is the shortfall.
            let shortfall = 0;
            for (const p of r.paid) {
              if (p.reason === null) {
                const credits = p.gross;
                const debits = p.tds + p.admin + p.sent;
                const takeable = Math.min(credits, before.get(p.m.userId)! + debits);
                balance.set(p.m.userId, balance.get(p.m.userId)! + debits - takeable);
                shortfall += credits - takeable;
                owed.set(p.m.userId, owed.get(p.m.userId)! + credits - takeable);
              }
              p.m.earned -= p.gross;
              p.m.days -= 1;
              p.m.status = 'active';
              payoutDays.delete(`${p.m.userId} ${r.day}`);
            }
            // A run of more members than a chunk goes on in the background after the answer.
            expect(['reversed', 'reversing']).toContain(res.json().data.status);
            await runsSettled(t.database);
            const reversed = await t.app.inject({ method: 'GET', url: `/api/income/runs/${r.runId}`, headers: bearer(token) });
            expect(reversed.json().data).toMatchObject({ status: 'reversed', shortfall: shortfall / 100 });
            // Nobody spent since the run: every balance is back where it was before it.
            if (shortfall === 0) {
              const after = await balances(userIds);
              for (const p of r.paid.filter((x) => x.reason === null)) {
                expect(after.get(p.m.userId)).toBe(before.get(p.m.userId)! - p.net + p.sent);
              }
            }
          }
          // After every step: the database is the model, and the engine's promises hold.
          expect(Object.fromEntries(await balances(userIds))).toEqual(Object.fromEntries(balance));
          const debts = await t.database.query<{ user_id: string; owed: string }>(
            'select user_id::text, recovery_paise::text as owed from users where user_id = any($1::int8[])', [userIds]);
          expect(Object.fromEntries(debts.map((d) => [Number(d.user_id), Number(d.owed)]))).toEqual(Object.fromEntries(owed));
          const rows = await t.database.query<{ id: number; earned: string; days: number; status: string }>(
            'select id, earned_paise::text as earned, days_earned as days, status from memberships where id = any($1::int[]) order by id',
            [model.map((m) => m.id)]);
          expect(rows.map((r) => [Number(r.id), Number(r.earned), r.status])).toEqual(
            [...model].sort((x, y) => x.id - y.id).map((m) => [m.id, m.earned, m.status]));
          await engineInvariants();
        }
        // Retire the case: its memberships earn nothing in the next cases' runs.
        await t.database.query(`update memberships set status = 'completed' where id = any($1::int[])`, [model.map((m) => m.id)]);
      },
    ), { numRuns: 25 });
  }, 120_000);
});

// ---------------------------------------------------------------- activations and level income

type UplineState = 'buyer' | 'active' | 'none' | 'inactive' | 'completed' | 'deleted';

describe('activations with level income on random trees', () => {
  it('credit exactly the shares the rules give to the active uplines (with and without compression), and each member once', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({
        parent: fc.option(fc.nat(), { nil: null, freq: 4 }),
        state: fc.constantFrom<UplineState>('buyer', 'buyer', 'active', 'active', 'none', 'inactive', 'completed', 'deleted'),
      }), { minLength: 2, maxLength: 16 }),
      fc.array(fc.noBias(fc.integer({ min: 0, max: 1_000 })).map((bp) => bp / 100), { minLength: 10, maxLength: 10 }),
      fc.boolean(),
      fc.oneof(fc.integer({ min: 1, max: 2_000_000 }), fc.noBias(fc.integer({ min: 1, max: 2_000_000 }))),
      fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
      async (tree, levelIncome, compression, pricePaise, order) => {
        caseNo += 1;
        await settingsFrom(t.database, today, { levelIncome, compression });
        serial += 1;
        const plan = await approveFiled(t, await checkerOf(t), await t.app.inject({
          method: 'POST', url: '/api/income/plans', headers: bearer(token),
          payload: { name: `Property plan ${serial}`, price: pricePaise / 100, dailyMode: 'fixed', dailyValue: 1, durationDays: 10, cap: pricePaise / 100 },
        }), 201);
        expect(plan.statusCode, plan.body).toBe(201);
        const planId = plan.json().data.planId as number;

        // The tree: each member's referrer is one of the three members made just before it (deep
        // chains, where levels and compression matter), or nobody.
        const nodes: { userId: number; parent: number | null; state: UplineState; active: boolean; hasMembership: boolean }[] = [];
        for (const [i, n] of tree.entries()) {
          const parent = n.parent === null || i === 0 ? null : i - 1 - (n.parent % Math.min(i, 3));
          const userId = await newMember(parent === null ? null : nodes[parent].userId, { status: n.state !== 'inactive', deleted: n.state === 'deleted' });
          const hasMembership = n.state !== 'buyer' && n.state !== 'none';
          if (hasMembership) {
            await membership(t.database, userId, {
              dailyPaise: 100, capPaise: 1_000, durationDays: 10, startsOn: addDays(today, 1), status: n.state === 'completed' ? 'completed' : 'active',
            });
          }
          nodes.push({ userId, parent, state: n.state, active: n.state === 'active', hasMembership });
        }
        const bp = levelIncome.map((p) => Math.round(p * 100));

        for (const pick of order) {
          // Mostly a member who can buy; one pick in five anybody (a refusal, or a second purchase).
          const canBuyNow = (n: (typeof nodes)[number]) => !n.hasMembership && (n.state === 'buyer' || n.state === 'none');
          const pool = pick % 5 === 0 || !nodes.some(canBuyNow) ? nodes : nodes.filter(canBuyNow);
          const buyer = pool[Math.floor(pick / 5) % pool.length];
          const mark = await t.database.query<{ id: string }>('select coalesce(max(id), 0)::text as id from ledger_entries');
          const res = await t.app.inject({
            method: 'POST', url: '/api/income/memberships', headers: moneyHeaders(token, randomUUID()),
            payload: { userId: buyer.userId, planId, paidVia: 'outside', method: 'Cash', reference: `P-${serial}-${buyer.userId}` },
          });
          if (!canBuyNow(buyer)) {
            // One membership per member; an inactive or deleted member can't buy.
            expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
            expect(res.statusCode).toBeLessThan(500);
            expect(res.json().success).toBe(false);
          } else {
            expect(res.statusCode, res.body).toBe(201);
            // The model: walk up the referrers; level k goes to the upline k levels up (when active)
            // or, with compression, to the k-th active upline.
            const expected: [number, number][] = [];
            let depth = 0;
            let activeSeen = 0;
            for (let up = buyer.parent; up !== null && depth < 50; up = nodes[up].parent) {
              depth += 1;
              const node = nodes[up];
              if (!compression && depth > 10) break;
              if (!node.active) continue;
              activeSeen += 1;
              const level = compression ? activeSeen : depth;
              if (level > 10) break;
              const share = Math.floor((pricePaise * bp[level - 1]) / 10_000);
              if (share > 0) expected.push([node.userId, share]);
            }
            const lines = await t.database.query<{ user_id: string; kind: string; amount: string }>(
              'select user_id::text, kind, amount_paise::text as amount from ledger_entries where id > $1 order by id', [mark[0].id]);
            expect(lines.map((l) => [Number(l.user_id), l.kind, Number(l.amount)])).toEqual([
              [buyer.userId, 'external_payment', pricePaise], [buyer.userId, 'membership_fee', -pricePaise],
              ...expected.map(([userId, amount]) => [userId, 'level_income', amount]),
            ]);
            buyer.hasMembership = true;
            buyer.active = true;
          }
          await engineInvariants();
        }
        await t.database.query(`update memberships set status = 'completed' where user_id = any($1::int8[])`, [nodes.map((n) => n.userId)]);
      },
    ), { numRuns: 30 });
  }, 120_000);

  it('runs the day of a period it already ran only once, even when started twice at the same moment', async () => {
    caseNo += 1;
    const day = addDays(today, -20_000 + caseNo * 12);
    await settingsFrom(t.database, day, { payOnWeekends: true });
    const userId = await newMember(null);
    const id = await membership(t.database, userId, { dailyPaise: 1234, capPaise: 10_000, durationDays: 3, startsOn: day });
    const start = () => t.app.inject({ method: 'POST', url: '/api/income/runs', headers: bearer(token), payload: { kind: 'daily_payout', date: wire(day) } });
    const answers = await Promise.all([start(), start(), start()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().data.runId)).size).toBe(1);
    await runDay(t, token, day);
    const [row] = await t.database.query<{ n: number }>(`select count(*)::int as n from ledger_entries where user_id = $1 and kind = 'daily_payout'`, [userId]);
    expect(row.n).toBe(1);
    await engineInvariants();
    await t.database.query(`update memberships set status = 'completed' where id = $1`, [id]);
  });
});
