import { RUN_KINDS, type Run, type RunKind, type RunStatus } from '../../../contract/income-runs';
import type { Tone } from '../../components/status-badge';
import { formatCount, formatINR, indiaToday } from '../../lib/format';

/** How the Runs screen words a run: labels, tones, periods and the settings a run used. */

export const kindLabel = (kind: RunKind) => RUN_KINDS.find((k) => k.value === kind)?.label ?? kind;

export const STATUS_LABELS: Record<RunStatus, string> = {
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  reversing: 'Reversing',
  reversed: 'Reversed',
};
export const STATUS_TONES: Record<RunStatus, Tone> = {
  running: 'info',
  completed: 'positive',
  failed: 'negative',
  reversing: 'warning',
  reversed: 'neutral',
};

/** 'dd-mm-yyyy', or 'dd-mm-yyyy – dd-mm-yyyy' for a period of more than one day. */
export const periodText = (r: Pick<Run, 'periodStart' | 'periodEnd'>) =>
  r.periodStart === r.periodEnd ? r.periodStart : `${r.periodStart} – ${r.periodEnd}`;

/** '12,345 / 1,00,000' (Indian digit grouping, as every count of the panel). */
export const progressText = (done: number, total: number) => `${formatCount(done)} / ${formatCount(total)}`;

/** Today in India (the engine's business day), yyyy-mm-dd, for a date input. */
export const istToday = (now = new Date()) => indiaToday(now);

const percentText = (v: unknown) => (typeof v === 'number' ? `${v}%` : String(v));
const rupeeText = (v: unknown) => (typeof v === 'number' ? formatINR(v) : String(v));
const yesNo = (v: unknown) => (v === true ? 'Yes' : v === false ? 'No' : String(v));

/** The contract's settings (incomeSettings), each with its label and how its value reads. */
const SETTINGS: Record<string, { label: string; text: (v: unknown) => string }> = {
  levelIncome: {
    label: 'Level income',
    text: (v) => (Array.isArray(v) ? v.map((p, i) => `L${i + 1} ${percentText(p)}`).join(', ') : String(v)),
  },
  compression: {
    label: 'Compression',
    text: (v) => (v === true ? "On: an inactive upline's share passes up" : v === false ? "Off: an inactive upline's share is not paid" : String(v)),
  },
  tdsPercent: { label: 'TDS', text: percentText },
  tdsWithoutPanPercent: { label: 'TDS without PAN', text: percentText },
  adminChargePercent: { label: 'Admin charge', text: percentText },
  payTo: { label: 'Pay to', text: (v) => (v === 'bank' ? 'Bank (primary account)' : v === 'wallet' ? 'Wallet' : String(v)) },
  payoutTime: { label: 'Payout time (India)', text: String },
  payOnWeekends: { label: 'Pays on weekends', text: yesNo },
  royaltyPoolPercent: { label: 'Royalty pool', text: (v) => `${percentText(v)} of the period's revenue` },
  royaltyPeriod: { label: 'Royalty period', text: (v) => (v === 'weekly' ? 'Weekly' : v === 'monthly' ? 'Monthly' : String(v)) },
  referralBonus: { label: 'Referral bonus (10 active referrals)', text: rupeeText },
  monthlyRewardMode: {
    label: 'Monthly reward',
    text: (v) => ({ off: 'Off', rank: "By rank (each rank's monthly reward)", target: 'By team business target' })[String(v)] ?? String(v),
  },
  monthlyRewardTarget: { label: 'Monthly reward target', text: rupeeText },
  monthlyRewardAmount: { label: 'Monthly reward amount', text: rupeeText },
};

/** 'royaltyPoolPaise' → 'Royalty pool', 'poolBp' → 'Pool percentage'. */
export function humanize(key: string): string {
  const words = key
    .replace(/Paise$/, '')
    .replace(/Bp$/, 'Percentage')
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Any stored value, readably: paise as ₹, basis points as %, lists and records inline. */
export function valueText(key: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') {
    if (key.endsWith('Paise')) return formatINR(value / 100);
    if (key.endsWith('Bp')) return `${value / 100}%`;
    return Number.isInteger(value) ? formatCount(value) : String(value);
  }
  if (typeof value === 'boolean') return yesNo(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' && v !== null ? recordText(v as Record<string, unknown>) : valueText(key, v))).join('; ');
  return recordText(value as Record<string, unknown>);
}

const recordText = (record: Record<string, unknown>) =>
  Object.entries(record).map(([k, v]) => `${humanize(k)}: ${valueText(k, v)}`).join(', ');

export interface Line {
  label: string;
  value: string;
}

/** The lines of a run's settings: the compensation settings first, in the contract's order, then anything else it stored. */
export function settingsLines(settings: Record<string, unknown>): Line[] {
  // The settings may be stored flat or under `settings` beside the plans' terms.
  const nested = settings.settings;
  const flat: Record<string, unknown> =
    nested && typeof nested === 'object' && !Array.isArray(nested)
      ? { ...(nested as Record<string, unknown>), ...Object.fromEntries(Object.entries(settings).filter(([k]) => k !== 'settings')) }
      : settings;
  const known = Object.keys(SETTINGS).filter((k) => k in flat).map((k) => ({ label: SETTINGS[k].label, value: SETTINGS[k].text(flat[k]) }));
  const rest = Object.entries(flat).filter(([k]) => !(k in SETTINGS)).map(([k, v]) => ({ label: humanize(k), value: valueText(k, v) }));
  return [...known, ...rest];
}

/** What the kinds store in a run's state (royalty: the pool and the weights it fixed at its start). */
const STATE: Record<string, { label: string; text?: (v: unknown) => string }> = {
  revenuePaise: { label: "The period's revenue" },
  poolBp: { label: 'Pool percentage' },
  poolPaise: { label: 'Pool' },
  weights: {
    label: 'Weights by rank',
    text: (v) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.entries(v as Record<string, unknown>).map(([rank, w]) => `Rank #${rank}: ${String(w)}`).join(', ') || 'No rank shares'
        : valueText('weights', v),
  },
  weightSum: { label: 'Sum of weights' },
  eligible: { label: 'Members sharing' },
  sharedPaise: { label: 'Shared' },
  leftoverPaise: { label: 'Left unpaid (rounding down)' },
  tdsBp: { label: 'TDS' },
  tdsWithoutPanBp: { label: 'TDS without PAN' },
  adminChargeBp: { label: 'Admin charge' },
  payTo: { label: 'Pay to', text: (v) => SETTINGS.payTo.text(v) },
  mode: { label: 'Mode', text: (v) => SETTINGS.monthlyRewardMode.text(v) },
  amountPaise: { label: 'Amount each' },
  targetPaise: { label: 'Team business target' },
  rankRewards: {
    label: 'Reward by rank',
    text: (v) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.entries(v as Record<string, unknown>).map(([rank, p]) => `Rank #${rank}: ${typeof p === 'number' ? formatINR(p / 100) : String(p)}`).join(', ') || 'None'
        : valueText('rankRewards', v),
  },
  ladder: { label: 'Rank criteria' },
};

/** The lines of a run's state (the royalty pool, the weights, what floor left over…). */
export const stateLines = (state: Record<string, unknown>): Line[] =>
  Object.entries(state).map(([k, v]) => ({ label: STATE[k]?.label ?? humanize(k), value: STATE[k]?.text?.(v) ?? valueText(k, v) }));
