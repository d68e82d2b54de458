import { isoToWireDate } from '../../../contract/common.ts';
import { DEFAULT_INCOME_SETTINGS, type IncomeSettings, type SettingsVersion } from '../../../contract/income.ts';
import { audit } from '../../lib/audit.ts';
import { actorId, type Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { iso } from '../../db/rows.ts';
import { addDays, istToday, settingsOn, settingsVersions, upsertSettingsVersion, type SettingsVersionRow } from './settings.ts';

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

function refused(message: string): AppError {
  return new AppError(400, message, { errors: [{ path: 'body.effectiveFrom', field: 'effectiveFrom', message }] });
}

export async function saveSettings(
  ctx: Ctx, input: { settings: IncomeSettings; effectiveFrom?: string },
): Promise<{ version: SettingsVersion; message: string }> {
  const { db } = ctx.database;
  const today = await istToday(db);
  const tomorrow = addDays(today, 1);
  const firstSave = (await settingsVersions(db)).length === 0;
  const earliest = firstSave ? today : tomorrow;
  const from = input.effectiveFrom ?? earliest;
  if (from < earliest) {
    throw refused(firstSave
      ? `Income settings cannot start in the past: effective from must be today (${isoToWireDate(today)}) or later`
      : `A settings change takes effect from tomorrow (${isoToWireDate(tomorrow)}) at the earliest: the settings in force today are never edited`);
  }
  const saved = await db.transaction(async (tx) => {
    // Before: what would have been in force on that day (a replaced scheduled version, or the one before).
    const before = await settingsOn(tx, from);
    const versionId = await upsertSettingsVersion(tx, from, input.settings, actorId(ctx));
    if (versionId === null) throw new AppError(409, `The settings of ${isoToWireDate(from)} are already in force and cannot be changed`);
    const row = (await settingsVersions(tx)).find((r) => r.versionId === versionId);
    if (!row) throw new Error(`settings version ${versionId} vanished`);
    const replaced = before.effectiveFrom === from;
    await audit(tx, ctx, {
      action: replaced ? 'replace_version' : 'change', entity: 'income_settings', entityId: versionId,
      before: { versionId: before.versionId, effectiveFrom: before.effectiveFrom, settings: before.settings },
      after: { versionId, effectiveFrom: from, settings: input.settings },
    });
    return { row, replaced };
  });
  const day = isoToWireDate(from);
  return {
    version: toWire(saved.row),
    message: saved.replaced ? `The settings scheduled for ${day} were replaced` : `Income settings saved: in force from ${day}`,
  };
}
