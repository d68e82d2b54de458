import { describe, expect, it } from 'vitest';
import { DEFAULT_INCOME_SETTINGS } from '../../../../contract/income.ts';
import { incomeSuite } from '../income-test-kit.ts';
import { addDays } from '../settings.ts';
import { rankPromotion } from './rank-promotion.ts';
import { addDirects, addMember, addMembership, driveRun, previewRun, replaceRanks } from './run-test-kit.ts';

const { ctx, db } = incomeSuite({ moneyInvariants: true });

const rankOf = async (userId: number) =>
  (await db().query<{ rank_id: number | null }>('select rank_id from users where user_id = $1', [userId]))[0].rank_id;

describe('rank promotion', () => {
  it('promotes to the highest qualifying rank above the current one, never down, with a record and an audit row each', async () => {
    const [bronze, silver, gold, closed, byHand] = await replaceRanks(db(), [
      { position: 1, minDirect: 2 },
      { position: 2, minDirect: 3, minTeam: 6 },
      { position: 3, minDirect: 1, minBusinessPaise: 1_000_000 },
      { position: 4, minDirect: 1, status: false }, // closed: never given
      { position: 9 }, // no criterion above 0: given by hand only
    ]);
    // top has 3 active directs, each with one member below: team 6 → silver (bronze qualifies too).
    const top = await addMember(db());
    const kids = await addDirects(db(), top, 3, { pricePaise: 1_000, below: 1 });
    // kids[0] gets 2 active directs: bronze (no rank before); kids[1] holds gold already: stays.
    await addDirects(db(), kids[0], 2, { pricePaise: 500 });
    await db().query('update users set rank_id = $1 where user_id = $2', [gold, kids[1]]);
    await addDirects(db(), kids[1], 2, { pricePaise: 500 });
    // A member by hand at the top rank qualifies for silver: never demoted.
    const held = await addMember(db(), { rankId: byHand });
    await addDirects(db(), held, 3, { below: 1 });
    // Team business 10,000 rupees four levels down with one active direct: gold, skipping bronze and silver.
    const rich = await addMember(db());
    let below = await addMember(db(), { referredBy: rich });
    await addMembership(db(), below, 100);
    for (let i = 0; i < 3; i += 1) below = await addMember(db(), { referredBy: below });
    await addMembership(db(), below, 999_900);
    // Inactive members are not promoted, whatever they qualify for.
    const blocked = await addMember(db(), { status: false });
    await addDirects(db(), blocked, 2);

    const day = { start: ctx.today, end: ctx.today };
    const preview = await previewRun(db(), rankPromotion, day);
    const run = await driveRun(db(), rankPromotion, day, { limit: 5 });
    expect(await rankOf(top)).toBe(silver);
    expect(await rankOf(kids[0])).toBe(bronze);
    expect(await rankOf(kids[1])).toBe(gold);
    expect(await rankOf(held)).toBe(byHand);
    expect(await rankOf(rich)).toBe(gold);
    expect(await rankOf(blocked)).toBeNull();
    const promotions = await db().query<{ user_id: number; from_rank_id: number | null; to_rank_id: number }>(
      'select user_id, from_rank_id, to_rank_id from rank_promotions where run_id = $1 order by user_id', [run.runId]);
    expect(promotions.map((p) => [Number(p.user_id), p.from_rank_id, p.to_rank_id])).toEqual([
      [top, null, silver], [kids[0], null, bronze], [rich, null, gold],
    ]);
    expect(run.tally.paid).toBe(3);
    expect(preview).toMatchObject({ paid: 3, units: run.tally.units, grossPaise: 0 });
    const audits = await db().query<{ entity_id: string; after: { rankId: number; runId: number } }>(
      `select entity_id, after from audit_log where action = 'rank_promoted' order by entity_id::int8`);
    expect(audits.map((a) => [Number(a.entity_id), a.after.rankId])).toEqual([[top, silver], [kids[0], bronze], [rich, gold]]);
    expect(closed).toBeGreaterThan(0);

    // The next day nothing changes; when kids[0] gets a third direct with one below each, silver (up, never down).
    const next = addDays(ctx.today, 1);
    expect((await driveRun(db(), rankPromotion, { start: next, end: next })).tally.paid).toBe(0);
    for (const k of await db().query<{ user_id: number }>('select user_id from users where referred_by = $1', [kids[0]])) {
      await addMember(db(), { referredBy: Number(k.user_id) });
    }
    await addDirects(db(), kids[0], 1, { below: 1 });
    const later = addDays(ctx.today, 2);
    const again = await driveRun(db(), rankPromotion, { start: later, end: later });
    expect(await rankOf(kids[0])).toBe(silver);
    expect(again.tally.paid).toBe(1);

    // Undo puts back what the run gave, where the member still holds it (a change by hand stands).
    await db().query('update users set rank_id = $1 where user_id = $2', [byHand, rich]);
    await db().db.transaction((tx) => rankPromotion.undo(tx, {
      runId: run.runId, kind: 'rank_promotion', period: day, settings: DEFAULT_INCOME_SETTINGS, settingsVersionId: null, state: run.state, batchId: null,
    }, { after: 0, upTo: null }));
    expect(await rankOf(top)).toBeNull();
    expect(await rankOf(kids[0])).toBe(silver); // the later run's rank stands
    expect(await rankOf(rich)).toBe(byHand);
    const reverted = await db().query<{ entity_id: string }>(`select entity_id from audit_log where action = 'rank_promotion_reversed'`);
    expect(reverted.map((r) => Number(r.entity_id))).toEqual([top]);
  });

  it('does nothing when no rank has a criterion', async () => {
    await replaceRanks(db(), [{ position: 1 }]);
    const day = addDays(ctx.today, 3);
    const run = await driveRun(db(), rankPromotion, { start: day, end: day });
    expect(run.total).toBe(0);
    expect(run.tally.paid).toBe(0);
  });
});
