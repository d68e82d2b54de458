import { describe, expect, it } from 'vitest';
import { DEFAULT_INCOME_SETTINGS } from '../../../../contract/income.ts';
import { incomeSuite } from '../income-test-kit.ts';
import { addDays } from '../settings.ts';
import { monthlyReward, referralBonus } from './rewards.ts';
import { addDirects, addMember, addMembership, creditsOf, driveRun, previewRun, replaceRanks } from './run-test-kit.ts';
import { monthOf } from './team.ts';

const { ctx, db } = incomeSuite({ moneyInvariants: true });

describe('referral bonus (referral_bonus_10_users)', () => {
  it('is daily and due on a past day, or today once the payout time has passed', () => {
    const day = referralBonus.periodOf('2026-05-13', DEFAULT_INCOME_SETTINGS);
    expect(day).toEqual({ start: '2026-05-13', end: '2026-05-13' });
    expect(referralBonus.isDue(day, DEFAULT_INCOME_SETTINGS, { day: '2026-05-13', time: '17:59' })).toBe(false);
    expect(referralBonus.isDue(day, DEFAULT_INCOME_SETTINGS, { day: '2026-05-13', time: '18:00' })).toBe(true);
    expect(referralBonus.isDue(day, DEFAULT_INCOME_SETTINGS, { day: '2026-05-14', time: '00:00' })).toBe(true);
    expect(referralBonus.isDue(day, DEFAULT_INCOME_SETTINGS, { day: '2026-05-12', time: '23:00' })).toBe(false);
  });

  it('pays a member with 10 active direct referrals once, ever; 9 active ones are not enough', async () => {
    const ten = await addMember(db());
    await addDirects(db(), ten, 10);
    const nineAndCompleted = await addMember(db());
    await addDirects(db(), nineAndCompleted, 9);
    await addDirects(db(), nineAndCompleted, 1, { membership: 'completed' });
    const nineAndInactive = await addMember(db());
    await addDirects(db(), nineAndInactive, 9);
    await addDirects(db(), nineAndInactive, 1, { status: false });
    await addDirects(db(), nineAndInactive, 1, { deleted: true });
    await addDirects(db(), nineAndInactive, 2, { membership: null });
    const blocked = await addMember(db(), { status: false });
    await addDirects(db(), blocked, 10);

    const settings = { referralBonus: 500 };
    const preview = await previewRun(db(), referralBonus, { start: ctx.today, end: ctx.today }, settings);
    const first = await driveRun(db(), referralBonus, { start: ctx.today, end: ctx.today }, { settings, limit: 7 });
    expect(Object.fromEntries(await creditsOf(db(), first.runId))).toEqual({ [ten]: 50_000 });
    expect(first.tally).toMatchObject({ paid: 1, grossPaise: 50_000 });
    expect(preview).toMatchObject({ paid: 1, grossPaise: 50_000, units: first.tally.units });
    expect(first.chunks).toBeGreaterThan(2);
    const [row] = await db().query<{ kind: string; reward_type: string; run_date: string }>(`
      select l.kind, b.reward_type, b.run_date::text as run_date from ledger_entries l join income_batches b using (batch_id)
       where l.run_id = $1`, [first.runId]);
    expect(row).toEqual({ kind: 'reward', reward_type: 'referral_bonus_10_users', run_date: ctx.today });
    const grants = await db().query<{ user_id: number; run_id: number }>('select user_id, run_id from reward_grants');
    expect(grants.map((g) => [Number(g.user_id), Number(g.run_id)])).toEqual([[ten, first.runId]]);

    // The next day: the one who had it gets nothing again; one more active referral makes the second qualify.
    await addDirects(db(), nineAndCompleted, 1);
    const next = addDays(ctx.today, 1);
    expect(await previewRun(db(), referralBonus, { start: next, end: next }, settings)).toMatchObject({ paid: 1, grossPaise: 50_000 });
    const second = await driveRun(db(), referralBonus, { start: next, end: next }, { settings, limit: 50 });
    expect(Object.fromEntries(await creditsOf(db(), second.runId))).toEqual({ [nineAndCompleted]: 50_000 });
    const third = await driveRun(db(), referralBonus, { start: addDays(ctx.today, 2), end: addDays(ctx.today, 2) }, { settings });
    expect(third.tally.paid).toBe(0);

    // Undo forgets the run's grants (the engine takes the money back): a corrected run may grant again.
    await db().db.transaction((tx) => referralBonus.undo(tx, { ...second, kind: 'referral_bonus', period: { start: next, end: next }, settings: { ...DEFAULT_INCOME_SETTINGS, ...settings }, settingsVersionId: null }, { after: 0, upTo: null }));
    expect((await db().query('select 1 from reward_grants where user_id = $1', [nineAndCompleted]))).toHaveLength(0);
    expect((await db().query('select 1 from reward_grants where user_id = $1', [ten]))).toHaveLength(1);
  });

  it('pays nothing and opens no batch when the bonus is 0', async () => {
    const day = addDays(ctx.today, 5);
    const run = await driveRun(db(), referralBonus, { start: day, end: day }, { settings: { referralBonus: 0 } });
    expect(run.batchId).toBeNull();
    expect(run.tally.paid).toBe(0);
  });
});

describe('monthly reward (monthlyReward)', () => {
  it('by rank: every live active member holding a rank gets its monthly reward', async () => {
    const [small, big, none, closed] = await replaceRanks(db(), [
      { position: 1, monthlyRewardPaise: 100_50 }, { position: 2, monthlyRewardPaise: 1_000_00 }, { position: 3 },
      { position: 4, monthlyRewardPaise: 5_000_00, status: false },
    ]);
    const a = await addMember(db(), { rankId: small });
    const b = await addMember(db(), { rankId: big });
    const c = await addMember(db(), { rankId: big });
    const out = [
      await addMember(db(), { rankId: none }), await addMember(db(), { rankId: closed }),
      await addMember(db(), { rankId: big, status: false }), await addMember(db(), { rankId: big, deleted: true }),
    ];
    const period = monthOf(ctx.today);
    const settings = { monthlyRewardMode: 'rank' as const };
    expect(monthlyReward.periodOf(ctx.today, DEFAULT_INCOME_SETTINGS)).toEqual(period);
    const preview = await previewRun(db(), monthlyReward, period, settings);
    const run = await driveRun(db(), monthlyReward, period, { settings, limit: 4 });
    const credits = await creditsOf(db(), run.runId);
    expect(Object.fromEntries(credits)).toEqual({ [a]: 10_050, [b]: 100_000, [c]: 100_000 });
    for (const o of out) expect(credits.has(o)).toBe(false);
    expect(run.tally).toMatchObject({ paid: 3, grossPaise: 210_050 });
    expect(preview).toMatchObject({ paid: 3, grossPaise: 210_050, units: run.tally.units });
    const [batch] = await db().query<{ kind: string; reward_type: string; run_date: string }>(
      'select kind, reward_type, run_date::text as run_date from income_batches where batch_id = $1', [run.batchId]);
    expect(batch).toEqual({ kind: 'reward', reward_type: 'monthlyReward', run_date: period.end });
  });

  it('by target: team business of the month (fees of every member below) at or above the target', async () => {
    await replaceRanks(db(), []);
    // top → mid → low → deep; fees this month: mid 3,000, low 1,500, deep 500.50 (all below top: 5,000.50).
    const top = await addMember(db());
    const mid = await addMember(db(), { referredBy: top });
    const low = await addMember(db(), { referredBy: mid });
    const deep = await addMember(db(), { referredBy: low });
    const old = await addMember(db(), { referredBy: mid });
    await addMembership(db(), mid, 300_000);
    await addMembership(db(), low, 150_000);
    await addMembership(db(), deep, 50_050);
    // A fee sold last month does not count for this month.
    await addMembership(db(), old, 900_000);
    await db().query(`update memberships set created_at = created_at - interval '40 days' where user_id = $1`, [old]);

    const settings = { monthlyRewardMode: 'target' as const, monthlyRewardTarget: 5000.5, monthlyRewardAmount: 750.25 };
    const period = monthOf(ctx.today);
    const preview = await previewRun(db(), monthlyReward, period, settings);
    const run = await driveRun(db(), monthlyReward, period, { settings, limit: 2 });
    // top: 3,000 + 1,500 + 500.50 = 5,000.50 ≥ target; mid: 2,000.50 < target.
    expect(Object.fromEntries(await creditsOf(db(), run.runId))).toEqual({ [top]: 75_025 });
    expect(preview).toMatchObject({ paid: 1, grossPaise: 75_025 });

    const lower = await driveRun(db(), monthlyReward, period, { settings: { ...settings, monthlyRewardTarget: 2000.5 } });
    expect(Object.fromEntries(await creditsOf(db(), lower.runId))).toEqual({ [top]: 75_025, [mid]: 75_025 });

    const off = await driveRun(db(), monthlyReward, period, { settings: { monthlyRewardMode: 'off' } });
    expect(off.batchId).toBeNull();
    expect(off.tally.paid).toBe(0);
  });
});
