import { describe, expect, it } from 'vitest';
import { isoToWireDate } from '../../../contract/common.ts';
import { incomeSuite } from './income-test-kit.ts';
import { addDays, planTermsOn } from './settings.ts';

const { ctx, call, viaApproval, db } = incomeSuite({ signIn: true });
const wire = (day: string) => isoToWireDate(day);

const gold = { name: 'Gold Plan', price: 1000, dailyMode: 'percent', dailyValue: 1.5, durationDays: 200, cap: 2000, active: true };

async function createPlan(body: object) {
  const res = await viaApproval('POST', '/api/income/plans', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { planId: number; current: Record<string, unknown> | null; scheduled: Record<string, unknown> | null };
}

describe('membership plans', () => {
  it('creates a percent plan in force today with its terms in rupees, the day in dd-mm-yyyy, and audits it', async () => {
    const res = await viaApproval('POST', '/api/income/plans', gold);
    expect(res.statusCode).toBe(201);
    const { data, message } = res.json();
    expect(message).toBe(`Plan Gold Plan created: in force from ${wire(ctx.today)}`);
    expect(data.scheduled).toBeNull();
    expect(data.current).toMatchObject({
      planId: data.planId, effectiveFrom: wire(ctx.today), name: 'Gold Plan', price: 1000, dailyMode: 'percent', dailyValue: 1.5,
      dailyAmount: 15, durationDays: 200, cap: 2000, active: true, createdByName: expect.any(String),
    });
    const [stored] = await db().query<{ daily_value: string; price_paise: string; cap_paise: string }>(
      'select daily_value::text, price_paise::text, cap_paise::text from membership_plan_versions where plan_id = $1', [data.planId]);
    expect(stored).toEqual({ daily_value: '150', price_paise: '100000', cap_paise: '200000' });
    // What activation reads: the version in force today.
    expect(await planTermsOn(db().db, data.planId, ctx.today)).toMatchObject({ dailyPaise: 1500, capPaise: 200000, durationDays: 200 });
    const log = await db().query<{ action: string; after: { price: number } }>(
      `select action, after from audit_log where entity = 'membership_plan' and entity_id = $1`, [String(data.planId)]);
    expect(log).toEqual([expect.objectContaining({ action: 'create', after: expect.objectContaining({ price: 1000, dailyValue: 1.5 }) })]);
  });

  it('stores a fixed day in paise and rounds a percent day down to the paisa', async () => {
    const fixed = await createPlan({ ...gold, name: 'Fixed Twenty', price: 1100, dailyMode: 'fixed', dailyValue: 20.05 });
    expect(fixed.current).toMatchObject({ dailyMode: 'fixed', dailyValue: 20.05, dailyAmount: 20.05 });
    // 99,999 paise × 125 bp / 10,000 = 1,249.9875 → 1,249 paise.
    const odd = await createPlan({ ...gold, name: 'Odd Price', price: 999.99, dailyValue: 1.25 });
    expect(odd.current).toMatchObject({ dailyValue: 1.25, dailyAmount: 12.49 });
    const zero = await viaApproval('POST', '/api/income/plans', { ...gold, name: 'Too Small', price: 1, dailyValue: 0.5 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().message).toMatch(/^Daily payout must come to at least ₹0.01 a day/);
  });

  it('starts a new plan on a future day (scheduled, nothing in force) and refuses a past day', async () => {
    const later = await createPlan({ ...gold, name: 'Later Plan', effectiveFrom: wire(addDays(ctx.today, 5)) });
    expect(later.current).toBeNull();
    expect(later.scheduled).toMatchObject({ effectiveFrom: wire(addDays(ctx.today, 5)) });
    const past = await viaApproval('POST', '/api/income/plans', { ...gold, name: 'Past Plan', effectiveFrom: wire(addDays(ctx.today, -1)) });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(`A new plan cannot start in the past: effective from must be today (${wire(ctx.today)}) or later`);
    expect(past.json().errors[0].field).toBe('effectiveFrom');
  });

  it('refuses a name another plan has, ignoring case and blanks, with 409 (create and change)', async () => {
    const dup = await viaApproval('POST', '/api/income/plans', { ...gold, name: '  gold   PLAN ' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A plan named gold   PLAN already exists');
    const other = await createPlan({ ...gold, name: 'Silver Plan' });
    const change = await viaApproval('PUT', `/api/income/plans/${other.planId}`, { ...gold, name: 'GOLD plan' });
    expect(change.statusCode).toBe(409);
    expect(change.json().message).toBe('A plan named GOLD plan already exists');
  });

  it('changes a plan from tomorrow by default, refuses today, and a second save for the same day replaces it', async () => {
    const plan = await createPlan({ ...gold, name: 'Change Me' });
    // Make the first version history: in force since ten days ago.
    await db().query(`update membership_plan_versions set effective_from = effective_from - 10 where plan_id = $1`, [plan.planId]);
    const todayRefused = await viaApproval('PUT', `/api/income/plans/${plan.planId}`, { ...gold, name: 'Change Me', effectiveFrom: wire(ctx.today) });
    expect(todayRefused.statusCode).toBe(400);
    expect(todayRefused.json().message).toBe(
      `A plan change takes effect from tomorrow (${wire(addDays(ctx.today, 1))}) at the earliest: the terms in force today are never edited`);

    const changed = await viaApproval('PUT', `/api/income/plans/${plan.planId}`, { ...gold, name: 'Change Me', price: 2000, cap: 4000 });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().message).toBe(`Plan change saved: in force from ${wire(addDays(ctx.today, 1))}`);
    expect(changed.json().data.current).toMatchObject({ price: 1000, effectiveFrom: wire(addDays(ctx.today, -10)) });
    expect(changed.json().data.scheduled).toMatchObject({ price: 2000, dailyAmount: 30, cap: 4000, effectiveFrom: wire(addDays(ctx.today, 1)) });

    const again = await viaApproval('PUT', `/api/income/plans/${plan.planId}`, { ...gold, name: 'Change Me', price: 3000, cap: 6000, effectiveFrom: wire(addDays(ctx.today, 1)) });
    expect(again.json().message).toBe(`The change scheduled for ${wire(addDays(ctx.today, 1))} was replaced`);
    expect(again.json().data.scheduled).toMatchObject({ price: 3000 });

    const versions = (await call('GET', `/api/income/plans/${plan.planId}/versions`)).json().data;
    expect(versions.map((v: { effectiveFrom: string; price: number }) => [v.effectiveFrom, v.price])).toEqual([
      [wire(addDays(ctx.today, 1)), 3000], [wire(addDays(ctx.today, -10)), 1000]]);
    // The version in force today is untouched; tomorrow's is the replaced one.
    expect(await planTermsOn(db().db, plan.planId, ctx.today)).toMatchObject({ pricePaise: 100000 });
    expect(await planTermsOn(db().db, plan.planId, addDays(ctx.today, 1))).toMatchObject({ pricePaise: 300000 });
    const log = await db().query<{ action: string }>(
      `select action from audit_log where entity = 'membership_plan' and entity_id = $1 order by id`, [String(plan.planId)]);
    expect(log.map((l) => l.action)).toEqual(['create', 'change', 'replace_version']);
  });

  it('renames a plan at once: names are not versioned, every version shows the new one', async () => {
    const plan = await createPlan({ ...gold, name: 'Old Name' });
    const res = await viaApproval('PUT', `/api/income/plans/${plan.planId}`, { ...gold, name: 'New Name', effectiveFrom: wire(addDays(ctx.today, 3)) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.current.name).toBe('New Name');
    const versions = (await call('GET', `/api/income/plans/${plan.planId}/versions`)).json().data;
    expect(versions.map((v: { name: string }) => v.name)).toEqual(['New Name', 'New Name']);
  });

  it('lists every plan with its current and scheduled version, by name', async () => {
    const res = await call('GET', '/api/income/plans', undefined, ctx.viewer);
    expect(res.statusCode).toBe(200);
    const names = res.json().data.map((p: { current: { name: string } | null; scheduled: { name: string } }) => (p.current ?? p.scheduled).name);
    expect(names).toEqual(['Change Me', 'Fixed Twenty', 'Gold Plan', 'Later Plan', 'New Name', 'Odd Price', 'Silver Plan']);
  });

  it('answers 404 for an unknown plan and 400 for bad input, never 500', async () => {
    expect((await viaApproval('PUT', '/api/income/plans/99999', gold)).json()).toEqual({ success: false, message: 'Plan not found' });
    expect((await call('GET', '/api/income/plans/99999/versions')).statusCode).toBe(404);
    expect((await call('GET', '/api/income/plans/abc/versions')).statusCode).toBe(400);
    const bad = [
      { ...gold, dailyValue: 150 },
      { ...gold, dailyValue: 1.234 },
      { ...gold, dailyMode: 'weekly' },
      { ...gold, durationDays: 0 },
      { ...gold, durationDays: 1.5 },
      { ...gold, price: -1 },
      { ...gold, cap: '2000' },
      { ...gold, name: '   ' },
      { ...gold, effectiveFrom: '31-02-2026' },
      { ...gold, dailyMode: 'fixed', dailyValue: 1e12 },
    ];
    for (const body of bad) {
      const res = await viaApproval('POST', '/api/income/plans', { ...body, name: body.name === gold.name ? 'Bad Plan' : body.name });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect((await viaApproval('POST', '/api/income/plans', { ...gold, dailyValue: 150 })).json().message).toBe('Daily payout must be between 0 and 100 %');
  });

  it('issue 24: refuses a cap below the price and a name over 80 characters, on the field, on create and change', async () => {
    const low = await viaApproval('POST', '/api/income/plans', { ...gold, name: 'Low Cap', price: 1000, cap: 999.99 });
    expect(low.statusCode).toBe(400);
    expect(low.json()).toMatchObject({ success: false, message: 'Cap must be at least the price' });
    expect(low.json().errors).toEqual([expect.objectContaining({ field: 'cap', message: 'Cap must be at least the price' })]);
    expect((await viaApproval('POST', '/api/income/plans', { ...gold, name: 'Equal Cap', price: 1000, cap: 1000 })).statusCode).toBe(201);
    const p = await createPlan({ ...gold, name: 'Change Cap' });
    const changed = await viaApproval('PUT', `/api/income/plans/${p.planId}`, { ...gold, name: 'Change Cap', price: 3000, cap: 2999 });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().message).toBe('Cap must be at least the price');
    const long = await viaApproval('POST', '/api/income/plans', { ...gold, name: 'P'.repeat(81) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Plan name must be at most 80 characters');
    expect(long.json().errors[0].field).toBe('name');
    const [{ n }] = await db().query<{ n: number }>(`select count(*)::int as n from membership_plans where name in ('Low Cap') or length(name) > 80`);
    expect(n).toBe(0);
  });

  it('needs membership_view to read and income_settings to change', async () => {
    expect((await call('GET', '/api/income/plans', undefined, ctx.noPermission)).statusCode).toBe(403);
    expect((await call('GET', '/api/income/plans/1/versions', undefined, ctx.noPermission)).statusCode).toBe(403);
    expect((await viaApproval('POST', '/api/income/plans', { ...gold, name: 'Nope' }, ctx.viewer)).statusCode).toBe(403);
    expect((await viaApproval('PUT', '/api/income/plans/1', { ...gold, name: 'Nope' }, ctx.viewer)).statusCode).toBe(403);
  });
});
