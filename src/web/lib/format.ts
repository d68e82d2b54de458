const countFormat = new Intl.NumberFormat('en-IN');
const clockDate = new Intl.DateTimeFormat('en-IN', { weekday: 'short', day: '2-digit', month: 'short', year: 'numeric' });
const clockTime = new Intl.DateTimeFormat('en-IN', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: true });

/** Whole counts in Indian digit grouping: 123456 -> 1,23,456. */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

export function formatClockDate(date: Date): string {
  return clockDate.format(date);
}

export function formatClockTime(date: Date): string {
  return clockTime.format(date);
}

/** Up to two initials of a name, for avatars. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return parts.slice(0, 2).map((part) => part[0].toUpperCase()).join('') || '?';
}

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
const dateTime = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: true,
});
const dateOnly = new Intl.DateTimeFormat('en-IN', { day: '2-digit', month: 'short', year: 'numeric' });

/** Spec §9: revenue, royalty and reward amounts in INR (en-IN). */
export function formatINR(rupees: number): string {
  return inr.format(rupees);
}

/** Spec §9: payouts and wallet amounts as plain numbers with 2 decimals. */
export function formatAmount(amount: number): string {
  return amount.toFixed(2);
}

/** A timestamp for tables; 'N/A' when absent or not a date (spec: 'Invalid Date' shows 'N/A'). */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? 'N/A' : dateTime.format(d);
}

export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? 'N/A' : dateOnly.format(d);
}

function isoDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Spec §9: the default range is the first to the last day of the current month (yyyy-mm-dd). */
export function currentMonthRange(today = new Date()): { from: string; to: string } {
  const first = new Date(today.getFullYear(), today.getMonth(), 1);
  const last = new Date(today.getFullYear(), today.getMonth() + 1, 0);
  return { from: isoDay(first), to: isoDay(last) };
}

/** A yyyy-mm-dd day as local midnight, so that formatting does not shift it across time zones. */
export const localDay = (iso: string) => `${iso}T00:00:00`;
