import { isoToWireDate } from '../../../contract/common.ts';
import { DEFAULT_INCOME_SETTINGS, type IncomeSettings, type incomeSettingsApi, type SettingsVersion } from '../../../contract/income.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import type { CompensationBounds } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import type { MoneyResult, MoneyContext } from '../../lib/money/movement.ts';
import { iso } from '../../db/rows.ts';
import { formatRupees, holdForApproval } from '../../lib/money/four-eyes.ts';
import { changeDetails, settingsProjection } from './projection.ts';
import { addDays, istToday, settingsOn, settingsVersions, upsertSettingsVersion, type SettingsVersionRow } from './settings.ts';

/** What other modules read of the settings timeline (tax: the TDS rates in force, by day). */
export { istToday, settingsOn, settingsTimeline } from './settings.ts';

/**
 * The compensation settings (issue 16), versioned by effective_from like the plans. A save starts
 * tomorrow at the earliest (and by default); the version in force today is never edited; saving
 * again for the same future day replaces that scheduled version.
 *
 * The one exception, decided here: on a fresh install (no version was ever saved; the defaults
 * are in force) the first save may take effect today, and that is its default, so an operator who
 * sets up the engine can run it the same day. Whatever ran earlier that day used the defaults and
 * recorded them (each run keeps the settings it used).
 */

const toWire = (row: SettingsVersionRow): SettingsVersion => ({
  versionId: row.versionId,
  effectiveFrom: isoToWireDate(row.effectiveFrom),
  settings: row.settings,
  createdBy: row.createdBy,
  createdByName: row.createdByName,
  createdAt: iso(row.createdAt),
});

export interface SettingsOverview {
  current: SettingsVersion;
  scheduled: SettingsVersion | null;
  history: SettingsVersion[];
}

/** The version in force today (the defaults, versionId null, when none is), the next scheduled one, and all of them, newest first. */
export async function getSettings(ctx: Ctx): Promise<SettingsOverview> {
  const { db } = ctx.database;
  const today = await istToday(db);
  const rows = await settingsVersions(db);
  const inForce = rows.find((r) => r.effectiveFrom <= today);
  const next = rows.filter((r) => r.effectiveFrom > today).at(-1);
  const defaults: SettingsVersion = {
    versionId: null, effectiveFrom: isoToWireDate(today), settings: DEFAULT_INCOME_SETTINGS, createdBy: null, createdByName: null, createdAt: null,
  };
  return { current: inForce ? toWire(inForce) : defaults, scheduled: next ? toWire(next) : null, history: rows.map(toWire) };
}

/** The saved versions for the CSV, newest first, each with its state today: a short list read whole, as getSettings reads it. */
export async function settingsVersionsForCsv(ctx: Ctx): Promise<(SettingsVersion & { state: 'In force' | 'Scheduled' | 'Past' })[]> {
  const { db } = ctx.database;
  const today = await istToday(db);
  const rows = await settingsVersions(db);
  const inForce = rows.find((r) => r.effectiveFrom <= today);
  return rows.map((r) => ({ ...toWire(r), state: r === inForce ? 'In force' : r.effectiveFrom > today ? 'Scheduled' : 'Past' }));
}

function refused(message: string, field = 'effectiveFrom'): AppError {
  const path = field === 'effectiveFrom' ? 'body.effectiveFrom' : `body.settings.${field}`;
  return new AppError(400, message, { errors: [{ path, field, message }] });
}

/** The deployment's bounds (issue 22): what no saved version may pay, whoever approves it. */
function refuseOutOfBounds(settings: IncomeSettings, bounds: CompensationBounds) {
  const levels = settings.levelIncome.reduce((sum, pct) => sum + pct, 0);
  if (levels > bounds.levelIncomePercent + 1e-9) {
    throw refused(`Level income must add up to at most ${bounds.levelIncomePercent} % (the limit set for this installation); these add up to ${Math.round(levels * 100) / 100} %`, 'levelIncome');
  }
  if (settings.tdsPercent < bounds.tdsMinPercent) {
    throw refused(`TDS must be at least ${bounds.tdsMinPercent} % (the limit set for this installation)`, 'tdsPercent');
  }
  // Section 206AA (docs/tax.md): without a PAN the higher of the rates applies, never a lower one.
  if (settings.tdsWithoutPanPercent < settings.tdsPercent) {
    throw refused(`TDS without PAN must be at least the TDS with a PAN (${settings.tdsPercent} %)`, 'tdsWithoutPanPercent');
  }
}

/** A settings version as the checker reads it: each field with its value. */
function shown(effectiveFrom: string | null, s: IncomeSettings) {
  return {
    effectiveFrom: effectiveFrom === null ? 'the defaults (never saved)' : isoToWireDate(effectiveFrom), levelIncome: s.levelIncome.map((p) => `${p} %`).join(', '), compression: s.compression ? 'On' : 'Off',
    tds: `${s.tdsPercent} %`, tdsWithoutPan: `${s.tdsWithoutPanPercent} %`, adminCharge: `${s.adminChargePercent} %`, payTo: s.payTo, payoutTime: s.payoutTime,
    payOnWeekends: s.payOnWeekends ? 'Yes' : 'No', royaltyPool: `${s.royaltyPoolPercent} %`, royaltyPeriod: s.royaltyPeriod,
    referralBonus: formatRupees(Math.round(s.referralBonus * 100)), monthlyReward: s.monthlyRewardMode,
    monthlyRewardTarget: formatRupees(Math.round(s.monthlyRewardTarget * 100)), monthlyRewardAmount: formatRupees(Math.round(s.monthlyRewardAmount * 100)),
  };
}

/**
 * PUT /income/settings. A settings version is a lever that makes money (issue 22): it is only
 * filed (202) and takes effect when a second operator with money_approve approves it (the approval
 * replays this function with money.approved); one not approved before its day never starts.
 */
export async function saveSettings(
  tx: Db, money: MoneyContext, bounds: CompensationBounds, input: { settings: IncomeSettings; effectiveFrom?: string },
): Promise<MoneyResult<ReplyOf<typeof incomeSettingsApi.save>>> {
  const today = await istToday(tx);
  const tomorrow = addDays(today, 1);
  const firstSave = (await settingsVersions(tx)).length === 0;
  const earliest = firstSave ? today : tomorrow;
  const from = input.effectiveFrom ?? earliest;
  if (from < earliest) {
    throw refused(firstSave
      ? `Income settings cannot start in the past: effective from must be today (${isoToWireDate(today)}) or later`
      : `A settings change takes effect from tomorrow (${isoToWireDate(tomorrow)}) at the earliest: the settings in force today are never edited`);
  }
  refuseOutOfBounds(input.settings, bounds);
  // Before: what would have been in force on that day (a replaced scheduled version, or the one before).
  const before = await settingsOn(tx, from);
  if (!money.approved) {
    const projection = await settingsProjection(tx, input.settings, from);
    const was = await settingsProjection(tx, before.settings, from);
    const details = { ...changeDetails(shown(before.effectiveFrom, before.settings), shown(from, input.settings), projection), projectedCostBefore: formatRupees(was.totalPaise) };
    return holdForApproval(tx, money, {
      kind: 'settings_change', userId: null, amountPaise: projection.totalPaise,
      payload: { body: { settings: input.settings, effectiveFrom: isoToWireDate(from) }, effectiveFrom: from, details },
      reason: `The income settings from ${isoToWireDate(from)} await approval by a second operator with money_approve (projected cost over their first 30 days: ${formatRupees(projection.totalPaise)}; ${formatRupees(was.totalPaise)} with the settings they replace)`,
    });
  }
  const versionId = await upsertSettingsVersion(tx, from, input.settings, money.makerId);
  if (versionId === null) throw new AppError(409, `The settings of ${isoToWireDate(from)} are already in force and cannot be changed`);
  const row = (await settingsVersions(tx)).find((r) => r.versionId === versionId);
  if (!row) throw new Error(`settings version ${versionId} vanished`);
  const replaced = before.effectiveFrom === from;
  const day = isoToWireDate(from);
  return {
    status: 200,
    body: { success: true, message: replaced ? `The settings scheduled for ${day} were replaced` : `Income settings saved: in force from ${day}`, data: toWire(row) },
    audit: {
      action: replaced ? 'replace_version' : 'change', entity: 'income_settings', entityId: versionId,
      before: { versionId: before.versionId, effectiveFrom: before.effectiveFrom, settings: before.settings },
      after: { versionId, effectiveFrom: from, settings: input.settings, makerId: money.makerId, approvedBy: money.actorId },
    },
  };
}
