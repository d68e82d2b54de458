import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentMonthRange, formatClockTime, formatDate, formatDateTime, indiaToday } from './format';

// A browser in New York (issue 24 item 6): it showed 08:37 am for 07:07 pm India time.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('India time, labelled, whatever the browser zone', () => {
  it('the browser under test really is in New York', () => {
    expect(new Date('2026-11-25T13:37:00Z').getHours()).toBe(8);
  });

  it('a time of day is India time with its IST label', () => {
    expect(formatDateTime('2026-11-25T13:37:00.000Z')).toBe('25 Nov 2026, 07:07 pm IST');
    expect(formatClockTime(new Date('2026-11-25T13:37:05Z'))).toBe('07:07:05 pm IST');
  });

  it('a timestamp late in the India evening is already the next India day', () => {
    // 20:00 UTC on the 25th is 01:30 on the 26th in India (and 15:00 on the 25th in New York).
    expect(formatDate('2026-11-25T20:00:00Z')).toBe('26 Nov 2026');
    expect(indiaToday(new Date('2026-11-25T20:00:00Z'))).toBe('2026-11-26');
  });

  it('a business day (yyyy-mm-dd) is shown as that very day, not the day before', () => {
    expect(formatDate('2026-11-25')).toBe('25 Nov 2026');
    expect(formatDate('2026-01-01')).toBe('01 Jan 2026');
  });

  it("the default period is the India month, even on the India month's first hours", () => {
    // 1 Dec 2026 02:00 in India is still 30 Nov in New York.
    expect(currentMonthRange(new Date('2026-11-30T20:30:00Z'))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(currentMonthRange(new Date('2028-02-10T06:00:00Z'))).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it("absent and invalid dates still show 'N/A'", () => {
    expect(formatDateTime(null)).toBe('N/A');
    expect(formatDateTime('not a date')).toBe('N/A');
    expect(formatDate('')).toBe('N/A');
  });
});
