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
