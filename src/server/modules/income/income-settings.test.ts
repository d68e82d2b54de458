import { describe, expect, it } from 'vitest';
import { isoToWireDate } from '../../../contract/common.ts';
import { DEFAULT_INCOME_SETTINGS, type IncomeSettings } from '../../../contract/income.ts';
import { incomeSuite } from './income-test-kit.ts';
import { addDays, settingsOn } from './settings.ts';

const { ctx, call, viaApproval, db } = incomeSuite({ signIn: true });
const wire = (day: string) => isoToWireDate(day);

const mine: IncomeSettings = {
  ...DEFAULT_INCOME_SETTINGS,
  levelIncome: [12.5, 6, 3, 2, 1, 1, 0.5, 0.5, 0.25, 0.25],
  compression: true,
  tdsPercent: 2,
  adminChargePercent: 3.5,
  payTo: 'bank',
  payoutTime: '09:30',
  royaltyPeriod: 'weekly',
  referralBonus: 750.5,
  monthlyRewardMode: 'target',
  monthlyRewardTarget: 100000,
  monthlyRewardAmount: 2500,
};

// The tests of this file run in order on one database: a fresh install first.
describe('income settings', () => {
  it('answers the defaults (versionId null) on a fresh install, with nothing scheduled and no history', async () => {
    const res = await call('GET', '/api/income/settings', undefined, ctx.viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      current: { versionId: null, effectiveFrom: wire(ctx.today), settings: DEFAULT_INCOME_SETTINGS, createdBy: null, createdByName: null, createdAt: null },
      scheduled: null,
      history: [],
    });
  });

  it('refuses a past day, and lets the first save on a fresh install take effect today (its default)', async () => {
    const past = await viaApproval('PUT', '/api/income/settings', { settings: mine, effectiveFrom: wire(addDays(ctx.today, -1)) });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(`Income settings cannot start in the past: effective from must be today (${wire(ctx.today)}) or later`);
    const first = await viaApproval('PUT', '/api/income/settings', { settings: mine });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      message: `Income settings saved: in force from ${wire(ctx.today)}`,
      data: { versionId: expect.any(Number), effectiveFrom: wire(ctx.today), settings: mine, createdByName: expect.any(String) },
    });
    // What the engine reads on that day.
    expect(await settingsOn(db().db, ctx.today)).toEqual({ versionId: first.json().data.versionId, effectiveFrom: ctx.today, settings: mine });
  });

  it('after the first save: today is refused, the default is tomorrow, the same day again replaces it', async () => {
    const again = await viaApproval('PUT', '/api/income/settings', { settings: DEFAULT_INCOME_SETTINGS, effectiveFrom: wire(ctx.today) });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(
      `A settings change takes effect from tomorrow (${wire(addDays(ctx.today, 1))}) at the earliest: the settings in force today are never edited`);
    expect(again.json().errors[0].field).toBe('effectiveFrom');

    const next = await viaApproval('PUT', '/api/income/settings', { settings: { ...mine, tdsPercent: 10 } });
    expect(next.statusCode).toBe(200);
    expect(next.json().data.effectiveFrom).toBe(wire(addDays(ctx.today, 1)));
    const replaced = await viaApproval('PUT', '/api/income/settings', { settings: { ...mine, tdsPercent: 7.25 }, effectiveFrom: wire(addDays(ctx.today, 1)) });
    expect(replaced.json().message).toBe(`The settings scheduled for ${wire(addDays(ctx.today, 1))} were replaced`);
    await viaApproval('PUT', '/api/income/settings', { settings: { ...mine, tdsPercent: 9 }, effectiveFrom: wire(addDays(ctx.today, 30)) });

    const { data } = (await call('GET', '/api/income/settings')).json();
    expect(data.current).toMatchObject({ effectiveFrom: wire(ctx.today), settings: mine });
    // The next scheduled version, not the later one.
    expect(data.scheduled).toMatchObject({ effectiveFrom: wire(addDays(ctx.today, 1)), settings: { tdsPercent: 7.25 } });
    expect(data.history.map((v: { effectiveFrom: string; settings: IncomeSettings }) => [v.effectiveFrom, v.settings.tdsPercent])).toEqual([
      [wire(addDays(ctx.today, 30)), 9], [wire(addDays(ctx.today, 1)), 7.25], [wire(ctx.today), 2]]);
    expect((await settingsOn(db().db, addDays(ctx.today, 29))).settings.tdsPercent).toBe(7.25);

    const log = await db().query<{ action: string; before: { settings: IncomeSettings }; after: { settings: IncomeSettings } }>(
      `select action, before, after from audit_log where entity = 'income_settings' order by id`);
    expect(log.map((l) => l.action)).toEqual(['change', 'change', 'replace_version', 'change']);
    expect(log[0].before.settings).toEqual(DEFAULT_INCOME_SETTINGS);
    expect(log[2].before.settings.tdsPercent).toBe(10);
    expect(log[2].after.settings.tdsPercent).toBe(7.25);
  });

  it('refuses settings the contract refuses, with 400 and the contract\u2019s message', async () => {
    const cases: [Partial<IncomeSettings>, string][] = [
      [{ levelIncome: [10, 5, 3] }, 'Level income needs exactly 10 levels'],
      [{ levelIncome: [60, 50, 0, 0, 0, 0, 0, 0, 0, 0] }, 'Level income must add up to at most 100 %'],
      [{ tdsPercent: 60, adminChargePercent: 50 }, 'TDS and admin charge must add up to at most 100 %'],
      [{ tdsPercent: 1.005 }, 'TDS must have at most 2 decimals'],
      [{ referralBonus: 500.000000005 }, 'Referral bonus must have at most 2 decimals'],
      [{ payoutTime: '25:00' }, 'Payout time must be HH:MM (24-hour, India time)'],
      [{ payTo: 'cash' as never }, 'Pay to must be wallet or bank'],
      [{ referralBonus: -1 }, 'Referral bonus must be between 0 and 100000000'],
    ];
    for (const [change, message] of cases) {
      const res = await viaApproval('PUT', '/api/income/settings', { settings: { ...mine, ...change }, effectiveFrom: wire(addDays(ctx.today, 2)) });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await viaApproval('PUT', '/api/income/settings', { settings: mine, effectiveFrom: '2026-01-01' })).statusCode).toBe(400);
    expect((await viaApproval('PUT', '/api/income/settings', {})).statusCode).toBe(400);
  });

  it('needs membership_view to read and income_settings to save', async () => {
    expect((await call('GET', '/api/income/settings', undefined, ctx.noPermission)).statusCode).toBe(403);
    expect((await viaApproval('PUT', '/api/income/settings', { settings: mine }, ctx.viewer)).statusCode).toBe(403);
  });
});
