/**
 * India time everywhere (decisions.md): every date and time on screen is Asia/Kolkata, whatever the
 * browser's own zone, and a time of day carries its "IST" label. Business days and periods are
 * India days, so a yyyy-mm-dd day is shown as that very day in every zone.
 */
export const INDIA_ZONE = 'Asia/Kolkata';

const countFormat = new Intl.NumberFormat('en-IN');
const clockDate = new Intl.DateTimeFormat('en-IN', { timeZone: INDIA_ZONE, weekday: 'short', day: '2-digit', month: 'short', year: 'numeric' });
const clockTime = new Intl.DateTimeFormat('en-IN', { timeZone: INDIA_ZONE, hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: true });
const indiaDay = new Intl.DateTimeFormat('en-CA', { timeZone: INDIA_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** Whole counts in Indian digit grouping: 123456 -> 1,23,456. */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

export function formatClockDate(date: Date): string {
  return clockDate.format(date);
}

export function formatClockTime(date: Date): string {
  return `${clockTime.format(date)} IST`;
}

/** Up to two initials of a name, for avatars. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return parts.slice(0, 2).map((part) => part[0].toUpperCase()).join('') || '?';
}

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
const dateTime = new Intl.DateTimeFormat('en-IN', {
  timeZone: INDIA_ZONE, day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: true,
});
const dateOnly = new Intl.DateTimeFormat('en-IN', { timeZone: INDIA_ZONE, day: '2-digit', month: 'short', year: 'numeric' });
const isoDayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A value as a Date: a bare yyyy-mm-dd is that India day's midnight. */
function toDate(value: string | number | Date): Date {
  return typeof value === 'string' && isoDayPattern.test(value) ? new Date(localDay(value)) : new Date(value);
}

/** Spec §9: revenue, royalty and reward amounts in INR (en-IN). */
export function formatINR(rupees: number): string {
  return inr.format(rupees);
}

/** Spec §9: payouts and wallet amounts as plain numbers with 2 decimals. */
export function formatAmount(amount: number): string {
  return amount.toFixed(2);
}

/**
 * A timestamp for tables, in India time with its label ("25 Nov 2026, 07:07 pm IST"); 'N/A' when
 * absent or not a date (spec: 'Invalid Date' shows 'N/A').
 */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const d = toDate(value);
  return Number.isNaN(d.getTime()) ? 'N/A' : `${dateTime.format(d)} IST`;
}

/** The India day of a timestamp, or a yyyy-mm-dd day as itself ("25 Nov 2026"). */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const d = toDate(value);
  return Number.isNaN(d.getTime()) ? 'N/A' : dateOnly.format(d);
}

/** Today's India day (yyyy-mm-dd), whatever the browser's zone. */
export function indiaToday(now = new Date()): string {
  return indiaDay.format(now);
}

/** Spec §9: the default range is the first to the last day of the current (India) month (yyyy-mm-dd). */
export function currentMonthRange(today = new Date()): { from: string; to: string } {
  const [year, month] = indiaToday(today).split('-').map(Number);
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const mm = String(month).padStart(2, '0');
  return { from: `${year}-${mm}-01`, to: `${year}-${mm}-${String(lastDay).padStart(2, '0')}` };
}

/** A yyyy-mm-dd India day as its midnight in India, so that formatting shows that very day in every zone. */
export const localDay = (iso: string) => `${iso}T00:00:00+05:30`;
