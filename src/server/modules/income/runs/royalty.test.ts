import { describe, expect, it } from 'vitest';
import { DEFAULT_INCOME_SETTINGS } from '../../../../contract/income.ts';
import { incomeSuite } from '../income-test-kit.ts';
import { royalty, type RoyaltyState } from './royalty.ts';
import { addMember, addMembership, creditsOf, driveRun, previewRun, replaceRanks } from './run-test-kit.ts';
import { isoWeekOf, monthOf } from './team.ts';
import { addDays } from '../settings.ts';

const { ctx, db } = incomeSuite({ moneyInvariants: true });

describe('royalty periods', () => {
  it('is the calendar month, or the ISO week when weekly; due once the period is over', () => {
    const settings = DEFAULT_INCOME_SETTINGS;
    expect(royalty.periodOf('2024-02-14', settings)).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(royalty.periodOf('2026-12-31', settings)).toEqual({ start: '2026-12-01', end: '2026-12-31' });
    const weekly = { ...settings, royaltyPeriod: 'weekly' as const };
    expect(royalty.periodOf('2026-05-13', weekly)).toEqual({ start: '2026-05-11', end: '2026-05-17' }); // a Wednesday
    expect(royalty.periodOf('2026-05-17', weekly)).toEqual({ start: '2026-05-11', end: '2026-05-17' }); // its Sunday
    expect(royalty.periodOf('2027-01-01', weekly)).toEqual({ start: '2026-12-28', end: '2027-01-03' }); // across a year
    const period = monthOf('2026-05-10');
    expect(royalty.isDue(period, settings, { day: '2026-05-31', time: '23:59' })).toBe(false);
    expect(royalty.isDue(period, settings, { day: '2026-06-01', time: '00:00' })).toBe(true);
  });
});

describe('royalty run', () => {
  it('shares floor(revenue × pool%) by rank weights among eligible members only, to the paisa, leftover recorded', async () => {
    const [a, b, zero, off] = await replaceRanks(db(), [
      { position: 1, weight: 1 }, { position: 2, weight: 2 }, { position: 3, weight: 0 }, { position: 4, weight: 3, status: false },
    ]);
    const m1 = await addMember(db(), { rankId: a });
    const m2 = await addMember(db(), { rankId: b });
    const m3 = await addMember(db(), { rankId: b, referredBy: m1 });
    const noWeight = await addMember(db(), { rankId: zero });
    const rankOff = await addMember(db(), { rankId: off });
    const inactive = await addMember(db(), { rankId: b, status: false });
    const deleted = await addMember(db(), { rankId: b, deleted: true });
    const noRank = await addMember(db());
    const joinedAfter = await addMember(db(), { rankId: b, createdAt: `${addDays(monthOf(ctx.today).end, 1)}T12:00:00+05:30` });
    // Revenue of the month: 9,999.99 + 3,333.34 = 13,333.33 rupees.
    await addMembership(db(), noWeight, 999_999);
    await addMembership(db(), m1, 333_334);

    const period = monthOf(ctx.today);
    const preview = await previewRun(db(), royalty, period);
    const run = await driveRun(db(), royalty, period, { limit: 2 });

    // Pool 2 % of 1,333,333 paise = floor(26,666.66) = 26,666; Σweights = 1 + 2 + 2 = 5.
    const state = run.state as unknown as RoyaltyState;
    expect(state).toMatchObject({ revenuePaise: 1_333_333, poolBp: 200, poolPaise: 26_666, weightSum: 5, eligible: 3 });
    // floor(26,666 × 1/5) = 5,333; floor(26,666 × 2/5) = 10,666 (twice): 26,665 paid, 1 paisa left over.
    expect(state).toMatchObject({ sharedPaise: 26_665, leftoverPaise: 1 });
    const credits = await creditsOf(db(), run.runId);
    expect(Object.fromEntries(credits)).toEqual({ [m1]: 5_333, [m2]: 10_666, [m3]: 10_666 });
    for (const out of [noWeight, rankOff, inactive, deleted, noRank, joinedAfter]) expect(credits.has(out)).toBe(false);
    expect(run.tally).toMatchObject({ units: 3, paid: 3, grossPaise: 26_665 });
    expect(run.total).toBe(3);
    expect(run.chunks).toBe(2);
    expect(preview).toEqual({ units: 3, paid: 3, failed: 0, grossPaise: 26_665, deductionsPaise: 0, failedPaise: 0 });

    // The credits are royalty rows of the run's batch (kind royalty, run date = the period's last day).
    const rows = await db().query<{ kind: string; batch_id: number; run_date: string; batch_kind: string; batch_run: number }>(`
      select l.kind, l.batch_id, b.run_date::text as run_date, b.kind as batch_kind, b.run_id as batch_run
        from ledger_entries l join income_batches b using (batch_id) where l.run_id = $1`, [run.runId]);
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r).toMatchObject({ kind: 'royalty', batch_id: run.batchId, run_date: period.end, batch_kind: 'royalty' });
      expect(Number(r.batch_run)).toBe(run.runId);
    }
  });

  it('uses the ISO week and the weights fixed when it began; no eligible member pays nothing', async () => {
    const [w3, w7] = await replaceRanks(db(), [{ position: 1, weight: 3 }, { position: 2, weight: 7 }]);
    const x = await addMember(db(), { rankId: w3 });
    const y = await addMember(db(), { rankId: w7 });
    const settings = { royaltyPeriod: 'weekly' as const, royaltyPoolPercent: 3.33 };
    const period = royalty.periodOf(ctx.today, { ...DEFAULT_INCOME_SETTINGS, ...settings });
    expect(period).toEqual(isoWeekOf(ctx.today));
    const preview = await previewRun(db(), royalty, period, settings);
    const run = await driveRun(db(), royalty, period, { settings, limit: 1 });
    // This week's revenue is still the 1,333,333 paise of today: 3.33 % → floor(44,399.99) = 44,399;
    // floor(44,399 × 3/10) = 13,319 and floor(44,399 × 7/10) = 31,079: 44,398 paid, 1 left over.
    expect(run.state).toMatchObject({ revenuePaise: 1_333_333, poolBp: 333, poolPaise: 44_399, weightSum: 10, sharedPaise: 44_398, leftoverPaise: 1 });
    expect(Object.fromEntries(await creditsOf(db(), run.runId))).toEqual({ [x]: 13_319, [y]: 31_079 });
    expect(preview).toMatchObject({ units: 2, paid: 2, grossPaise: 44_398 });

    // A rank's weight changed after the run began does not change what its chunks pay: the state holds it.
    await db().query('update ranks set royalty_weight = 100 where rank_id = $1', [w7]);
    expect(run.state.weights).toEqual({ [w3]: 3, [w7]: 7 });

    await replaceRanks(db(), [{ position: 1, weight: 0 }]);
    const empty = await driveRun(db(), royalty, monthOf(ctx.today));
    expect(empty.state).toMatchObject({ poolPaise: 26_666, weightSum: 0, eligible: 0, sharedPaise: 0, leftoverPaise: 26_666 });
    expect(empty.tally).toMatchObject({ paid: 0, grossPaise: 0 });
    expect((await creditsOf(db(), empty.runId)).size).toBe(0);
  });
});
