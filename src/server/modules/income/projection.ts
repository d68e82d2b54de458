import { and, count, eq, gte, lt, sql, sum } from 'drizzle-orm';
import { LEVELS, percentToBp, type IncomeSettings } from '../../../contract/income.ts';
import { type RunKind } from '../../../contract/income-runs.ts';
import type { Db } from '../../db/client.ts';
import { memberships } from '../../db/schema/members.ts';
import { ledgerDaily } from '../../db/schema/money.ts';
import { formatRupees } from '../../lib/money/four-eyes.ts';
import { isBusinessDay } from './runs/daily-payout.ts';
import { RUN_HANDLERS } from './runs/kinds.ts';
import { addDays } from './settings.ts';

/**
 * The projected cost of a compensation change (issue 22): what it would pay over its first 30 days
 * at today's memberships and tree, shown to the checker who approves it. Where a run kind pays it,
 * the figure is the engine's own preview of that kind with the changed settings (the same
 * `begin` + `preview` a run's preview uses, writing nothing).
 */

export const PROJECTION_DAYS = 30;

/** One line of a projection: what it is and what it comes to (paise). */
export interface ProjectionLine {
  label: string;
  paise: number;
}

export interface Projection {
  /** The total the request is filed with (its amount on the Approvals screen). */
  totalPaise: number;
  lines: ProjectionLine[];
  /** How it was computed, in one sentence for the checker. */
  basis: string;
}

/** The business days among the 30 days from `from`, under `settings`. */
export function businessDaysFrom(from: string, settings: Pick<IncomeSettings, 'payOnWeekends'>, days = PROJECTION_DAYS): number {
  let n = 0;
  for (let i = 0; i < days; i++) if (isBusinessDay(addDays(from, i), settings)) n += 1;
  return n;
}

/** The engine's preview of `kind` for the period holding `day`, with `settings` instead of the stored ones. */
async function previewWith(tx: Db, kind: RunKind, day: string, settings: IncomeSettings) {
  const handler = RUN_HANDLERS[kind];
  const period = handler.periodOf(day, settings);
  const scope = { kind, period, settings, settingsVersionId: null };
  const begun = await handler.begin(tx, { runId: 0, ...scope });
  return handler.preview(tx, { ...scope, state: begun.state });
}

/** Membership fees of the 30 days before `day` (the kept day totals, not the ledger). */
async function feesBefore(tx: Db, day: string): Promise<number> {
  const [row] = await tx.select({ total: sum(ledgerDaily.totalPaise) }).from(ledgerDaily)
    .where(and(eq(ledgerDaily.kind, 'membership_fee'), gte(ledgerDaily.day, addDays(day, -PROJECTION_DAYS)), lt(ledgerDaily.day, day)));
  return -Number(row?.total ?? 0); // fees are debits of the member's wallet
}

/** What an activation at `pricePaise` pays its uplines at most (every level filled). */
export const levelIncomePerSale = (pricePaise: number, settings: IncomeSettings) =>
  settings.levelIncome.slice(0, LEVELS).reduce((sum, pct) => sum + Math.floor((pricePaise * percentToBp(pct)) / 10_000), 0);

/**
 * Settings: the daily payout (the engine's preview of `from`'s run, net of TDS and admin charge,
 * times the business days of the 30), level income on the last 30 days' fees, the royalty pool on
 * them, the referral bonuses due now and the monthly reward of the last month (engine previews).
 */
export async function settingsProjection(tx: Db, settings: IncomeSettings, from: string): Promise<Projection> {
  const payout = await previewWith(tx, 'daily_payout', from, settings);
  const days = businessDaysFrom(from, settings);
  const fees = await feesBefore(tx, from);
  const bonus = await previewWith(tx, 'referral_bonus', from, settings);
  const lastMonth = addDays(`${from.slice(0, 7)}-01`, -1);
  const reward = await previewWith(tx, 'monthly_reward', lastMonth, settings);
  const levelBp = settings.levelIncome.reduce((sum, pct) => sum + percentToBp(pct), 0);
  const lines: ProjectionLine[] = [
    { label: `Daily payouts, net of TDS and admin charge (${days} business days)`, paise: (payout.grossPaise - payout.deductionsPaise) * days },
    { label: 'Level income on the last 30 days\u2019 membership fees', paise: Math.floor((fees * levelBp) / 10_000) },
    { label: 'Royalty pool on the last 30 days\u2019 membership fees', paise: Math.floor((fees * percentToBp(settings.royaltyPoolPercent)) / 10_000) },
    { label: 'Referral bonuses due now', paise: bonus.grossPaise },
    { label: 'Monthly rewards (as for last month)', paise: reward.grossPaise },
  ];
  return {
    totalPaise: lines.reduce((sum, l) => sum + l.paise, 0),
    lines,
    basis: `Today's memberships, tree and ranks; membership fees of the last 30 days (${formatRupees(fees)}) as the next 30 days' sales`,
  };
}

export interface PlanTerms {
  pricePaise: number;
  dailyPaise: number;
  durationDays: number;
  capPaise: number;
}

/**
 * A plan version: what each membership sold on it pays over its first 30 days (its daily payout
 * on the business days, within its duration and cap, and its uplines' level income at the
 * settings in force), times the memberships the plan sold in the last 30 days (at least one).
 * Memberships already sold keep their terms, so a change costs nothing on them.
 */
export async function planProjection(tx: Db, terms: PlanTerms, settings: IncomeSettings, from: string, planId: number | null): Promise<Projection> {
  const days = Math.min(businessDaysFrom(from, settings), terms.durationDays);
  const payout = Math.min(terms.dailyPaise * days, terms.capPaise);
  const level = levelIncomePerSale(terms.pricePaise, settings);
  let sold = 0;
  if (planId !== null) {
    const [row] = await tx.select({ n: count() }).from(memberships)
      .where(and(eq(memberships.planId, planId), gte(memberships.createdAt, sql`now() - interval '30 days'`)));
    sold = row?.n ?? 0;
  }
  const sales = Math.max(1, sold);
  return {
    totalPaise: (payout + level) * sales,
    lines: [
      { label: `Daily payouts of one membership (${days} business days, within its cap)`, paise: payout },
      { label: 'Level income on one sale (every level filled)', paise: level },
      { label: `Memberships sold in 30 days (as the last 30 days: ${sold})`, paise: (payout + level) * sales },
    ],
    basis: `Each membership sold pays ${formatRupees(payout + level)} in its first 30 days; ${sales} sale(s) as in the last 30 days`,
  };
}

/** What the Approvals screen shows of a compensation change: before, after, and the projected cost. */
export function changeDetails(before: Record<string, unknown> | null, after: Record<string, unknown>, projection: Projection) {
  return {
    // The stored JSON does not keep key order: the fields in the order they are shown.
    fields: Object.keys(after),
    before, after,
    projectedCost: formatRupees(projection.totalPaise),
    projection: projection.lines.map((l) => ({ label: l.label, amount: formatRupees(l.paise) })),
    basis: projection.basis,
  };
}
