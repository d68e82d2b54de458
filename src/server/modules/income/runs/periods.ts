import { and, eq, gte, lte, ne, sql } from 'drizzle-orm';
import { isoToWireDate } from '../../../../contract/common.ts';
import type { RunKind } from '../../../../contract/income-runs.ts';
import type { Db } from '../../../db/client.ts';
import { incomeRuns } from '../../../db/schema/income.ts';
import { AppError } from '../../../lib/errors.ts';
import { addDays, type SettingsTimeline } from '../settings.ts';
import type { RunKindHandler, RunPeriod } from './kind.ts';

/**
 * A run's period (issue 22, findings 4 and 5).
 *
 * **Periods of one kind never overlap.** A kind whose period type comes from the settings
 * (royalty: "Royalty period", monthly or weekly) chains its periods: each period's type is the one
 * in force on its **first day**, and it ends where a period of that type holding its first day
 * ends; the next starts the day after. While the type never changes these are the calendar months
 * (or ISO weeks). When a version changes the type from day E, the period already under way on E
 * (begun under the old type) runs to its natural end; the first period of the new type starts the
 * day after it and may be short (monthly→weekly from Saturday 04-03-2028: March stays 01-03..31-03,
 * then 01-04..02-04 (Saturday, Sunday), then whole ISO weeks from Monday 03-04; weekly→monthly from
 * Wednesday 15-03: the week 13-03..19-03, then 20-03..31-03, then whole months). A version can only
 * start after today, so a period that has begun never changes its bounds.
 * The engine also refuses to start a run whose period overlaps a run of the same kind that is not
 * reversed (runs from before this rule, or anything the chain did not foresee).
 *
 * **Runs only for periods the settings pay**: a kind may refuse a period (`unpaid`): the daily
 * payout on a Saturday or Sunday while "Pay on weekends" is off (the settings in force that day).
 */

/** The period of `handler`'s kind that holds `day`, chained across changes of period type. */
export function periodIn(handler: RunKindHandler, day: string, timeline: SettingsTimeline): RunPeriod {
  const natural = (d: string) => handler.periodOf(d, timeline.on(d));
  const typeOf = handler.periodType;
  if (!typeOf) return natural(day);
  // The days (≤ day) from which the period type differs from the day before's.
  const changes: string[] = [];
  let previous = typeOf(timeline.on('0001-01-01'));
  for (const v of timeline.versions) {
    if (v.from > day) break;
    const type = typeOf(v.settings);
    if (type !== previous) changes.push(v.from);
    previous = type;
  }
  if (changes.length === 0) return natural(day);
  const lastChange = changes.at(-1)!;
  // Before the first change every day has one type, so the calendar periods hold up to its eve.
  let current = natural(addDays(changes[0], -1));
  while (current.end < day) {
    const start = addDays(current.end, 1);
    const next = natural(start);
    // Past the last change and on a boundary of its type: from here on the periods are the calendar's.
    if (start > lastChange && next.start === start) return natural(day);
    current = { start, end: next.end };
  }
  return current;
}

/** The reason the settings do not pay the period (400), if they do not. */
export function refuseUnpaid(handler: RunKindHandler, period: RunPeriod, timeline: SettingsTimeline): void {
  const reason = handler.unpaid?.(period, timeline.on(period.start));
  if (reason) throw new AppError(400, reason);
}

/** Serialises starts of one kind (until the transaction ends), so the overlap check below holds. */
export async function lockKind(tx: Db, kind: RunKind): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${KIND_LOCK}, hashtext(${kind}))`);
}
const KIND_LOCK = 800_917;

/** A run of `kind` that is not reversed, starts on another day and shares a day with `period` (409). */
export async function refuseOverlap(tx: Db, kind: RunKind, label: string, period: RunPeriod): Promise<void> {
  const [other] = await tx.select({ runId: incomeRuns.runId, start: incomeRuns.periodStart, end: incomeRuns.periodEnd }).from(incomeRuns)
    .where(and(
      eq(incomeRuns.kind, kind), ne(incomeRuns.status, 'reversed'), ne(incomeRuns.periodStart, period.start),
      lte(incomeRuns.periodStart, period.end), gte(incomeRuns.periodEnd, period.start),
    ))
    .orderBy(incomeRuns.periodStart).limit(1);
  if (!other) return;
  const span = (p: { start: string; end: string }) => `${isoToWireDate(p.start.slice(0, 10))} to ${isoToWireDate(p.end.slice(0, 10))}`;
  throw new AppError(409,
    `The ${label} period ${span(period)} overlaps run ${Number(other.runId)} for ${span(other)}: a day is shared by one period only`);
}
