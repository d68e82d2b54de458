import { sql } from 'drizzle-orm';
import { DEFAULT_INCOME_SETTINGS, incomeSettings, type IncomeSettings } from '../../../contract/income.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { isoDate, type DayRow } from '../../db/rows.ts';
import type { incomeSettingsVersions } from '../../db/schema/income.ts';
import type { users } from '../../db/schema/members.ts';

/**
 * What every part of the income engine reads: the business day in India time, the compensation
 * settings in force on a day, and a plan's terms in force on a day. Versions are rows with an
 * effective_from day; the one in force on a day is the latest that is not after it.
 */

type SettingsVersion = typeof incomeSettingsVersions.$inferSelect;
/** A version as the engine reads it (effective_from as text). */
type VersionRow = Pick<SettingsVersion, 'versionId' | 'effectiveFrom' | 'settings'>;
type TimelineRow = Pick<SettingsVersion, 'versionId' | 'settings'> & { from: SettingsVersion['effectiveFrom'] };
/** A version with who saved it (the settings screen's history). */
type StoredVersionRow = Pick<SettingsVersion, 'versionId' | 'effectiveFrom' | 'settings' | 'createdBy' | 'createdAt'> & {
  createdByName: (typeof users.$inferSelect)['fullName'] | null;
};

/** Today's business day in Asia/Kolkata (yyyy-mm-dd), by the database's clock. */
export async function istToday(db: Db): Promise<string> {
  const [row] = rowsOf<DayRow>(await db.execute(sql`select (now() at time zone 'Asia/Kolkata')::date::text as day`));
  return isoDate(row.day);
}

/** Adds days to a yyyy-mm-dd day. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export interface SettingsInForce {
  /** null: nothing was ever saved; the defaults apply. */
  versionId: number | null;
  effectiveFrom: string | null;
  settings: IncomeSettings;
}

/** The compensation settings in force on `day` (yyyy-mm-dd). */
export async function settingsOn(db: Db, day: string): Promise<SettingsInForce> {
  const [row] = rowsOf<VersionRow>(await db.execute(sql`
    select version_id as "versionId", effective_from::text as "effectiveFrom", settings
      from income_settings_versions where effective_from <= ${day}::date
     order by effective_from desc limit 1`));
  if (!row) return { versionId: null, effectiveFrom: null, settings: DEFAULT_INCOME_SETTINGS };
  const stored = typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings;
  return { versionId: row.versionId, effectiveFrom: isoDate(row.effectiveFrom), settings: incomeSettings.parse(stored) };
}

/**
 * Every saved settings version, oldest first, and the settings in force on a day picked from them
 * without asking the database again (the schedule and a period's type read many days).
 */
export interface SettingsTimeline {
  versions: { versionId: number; from: string; settings: IncomeSettings }[];
  /** The settings in force on `day`: the latest version from a day not after it, else the defaults. */
  on(day: string): IncomeSettings;
}

export async function settingsTimeline(db: Db): Promise<SettingsTimeline> {
  const rows = rowsOf<TimelineRow>(await db.execute(sql`
    select version_id as "versionId", effective_from::text as "from", settings from income_settings_versions order by effective_from`));
  const versions = rows.map((r) => ({
    versionId: Number(r.versionId),
    from: isoDate(r.from),
    settings: incomeSettings.parse(typeof r.settings === 'string' ? JSON.parse(r.settings) : r.settings),
  }));
  return {
    versions,
    on: (day) => versions.findLast((v) => v.from <= day)?.settings ?? DEFAULT_INCOME_SETTINGS,
  };
}

export interface PlanTermsInForce {
  planId: number;
  versionId: number;
  name: string;
  pricePaise: number;
  dailyMode: 'percent' | 'fixed';
  /** Basis points of the price (percent) or paise (fixed). */
  dailyValue: number;
  /** What a membership sold on these terms earns per day, paise (a percent rounds down to the paisa). */
  dailyPaise: number;
  durationDays: number;
  capPaise: number;
  active: boolean;
}

/** A percent plan's day: price × bp / 10,000, rounded down to the paisa. */
export const dailyPaiseOf = (mode: 'percent' | 'fixed', value: number, pricePaise: number) =>
  mode === 'fixed' ? value : Math.floor((pricePaise * value) / 10_000);

/** The terms of plan `planId` in force on `day`, or null when the plan has no version by then. */
export async function planTermsOn(db: Db, planId: number, day: string): Promise<PlanTermsInForce | null> {
  const [row] = rowsOf<Omit<PlanTermsInForce, 'dailyPaise'>>(await db.execute(sql`
    select v.plan_id as "planId", v.version_id as "versionId", p.name, v.price_paise::int8 as "pricePaise",
           v.daily_mode as "dailyMode", v.daily_value::int8 as "dailyValue", v.duration_days as "durationDays",
           v.cap_paise::int8 as "capPaise", v.active
      from membership_plan_versions v join membership_plans p on p.plan_id = v.plan_id
     where v.plan_id = ${planId} and v.effective_from <= ${day}::date
     order by v.effective_from desc limit 1`));
  if (!row) return null;
  const terms = { ...row, pricePaise: Number(row.pricePaise), dailyValue: Number(row.dailyValue), capPaise: Number(row.capPaise) };
  return { ...terms, dailyPaise: dailyPaiseOf(terms.dailyMode, terms.dailyValue, terms.pricePaise) };
}

/** A saved settings version as stored, with who saved it (the settings screen's history). */
export interface SettingsVersionRow {
  versionId: number;
  effectiveFrom: string;
  settings: IncomeSettings;
  createdBy: number | null;
  createdByName: string | null;
  createdAt: string | Date;
}

/** Every saved settings version, newest (latest effective_from) first. */
export async function settingsVersions(db: Db): Promise<SettingsVersionRow[]> {
  const rows = rowsOf<StoredVersionRow>(await db.execute(sql`
    select s.version_id as "versionId", s.effective_from::text as "effectiveFrom", s.settings,
           s.created_by as "createdBy", u.full_name as "createdByName", s.created_at as "createdAt"
      from income_settings_versions s left join users u on u.user_id = s.created_by
     order by s.effective_from desc`));
  return rows.map((row) => ({
    ...row,
    createdBy: row.createdBy === null ? null : Number(row.createdBy),
    effectiveFrom: isoDate(row.effectiveFrom),
    settings: incomeSettings.parse(typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings),
  }));
}

/**
 * Writes the settings version starting on `effectiveFrom`, replacing one already scheduled for
 * that day. A version in force (effective_from ≤ today in India, by the database's clock) is never
 * replaced: then nothing is written and null comes back.
 */
export async function upsertSettingsVersion(db: Db, effectiveFrom: string, settings: IncomeSettings, createdBy: number | null): Promise<number | null> {
  const [row] = rowsOf<Pick<SettingsVersion, 'versionId'>>(await db.execute(sql`
    insert into income_settings_versions (effective_from, settings, created_by)
    values (${effectiveFrom}::date, ${JSON.stringify(settings)}::jsonb, ${createdBy})
    on conflict (effective_from) do update
       set settings = excluded.settings, created_by = excluded.created_by, created_at = now()
     where income_settings_versions.effective_from > (now() at time zone 'Asia/Kolkata')::date
    returning version_id as "versionId"`));
  return row?.versionId ?? null;
}
