import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { CSV_BATCH, indiaTimestamp, keysetBatches, sendCsv } from './csv';

async function csvOf(rows: (string | number | Date | null)[][]): Promise<string> {
  const app = Fastify();
  app.get('/x.csv', (_request, reply) => sendCsv(reply, 'x.csv', ['A', 'B'], async () => ({ rows, cursor: null })));
  const res = await app.inject({ method: 'GET', url: '/x.csv' });
  await app.close();
  return res.body.replace(/^\uFEFF/, '');
}

describe('CSV times are India time with their offset (issue 24 item 6)', () => {
  it('a moment reads the same in every spreadsheet: +05:30 and the India clock', () => {
    expect(indiaTimestamp(new Date('2026-11-25T13:37:00.000Z'))).toBe('2026-11-25T19:07:00+05:30');
    expect(indiaTimestamp(new Date('2026-11-25T20:00:00Z'))).toBe('2026-11-26T01:30:00+05:30');
  });

  it('Date cells and UTC timestamp strings are converted; days, numbers and other text are not; a negative amount stays a number, a formula is defused', async () => {
    const body = await csvOf([
      [new Date('2026-11-25T13:37:00Z'), '2026-11-25T13:37:00.123Z'],
      ['2026-11-25 13:37:00+00', '2026-11-25'],
      [12.5, 'Paid 2026-11-25T13:37:00Z'],
      [null, '=HYPERLINK("x")'],
      ['-10.00', '-2+3+cmd|x'],
    ]);
    expect(body.split('\r\n')).toEqual([
      'A,B',
      '2026-11-25T19:07:00+05:30,2026-11-25T19:07:00.123+05:30',
      '2026-11-25T19:07:00+05:30,2026-11-25',
      '12.5,Paid 2026-11-25T13:37:00Z',
      `,"'=HYPERLINK(""x"")"`,
      "-10.00,'-2+3+cmd|x",
      '',
    ]);
  });
});

describe('keysetBatches', () => {
  it('reads batches of CSV_BATCH after the last key of a full batch, and stops after a shorter one', async () => {
    const ids = Array.from({ length: CSV_BATCH + 2 }, (_, i) => i + 1);
    const asked: (number | null)[] = [];
    const next = keysetBatches({
      read: async (afterId: number | null, limit) => {
        asked.push(afterId);
        return ids.filter((id) => id > (afterId ?? 0)).slice(0, limit).map((id) => ({ id }));
      },
      cells: (row) => [row.id],
      key: (row) => row.id,
    });
    const first = await next(null);
    expect(first.rows).toHaveLength(CSV_BATCH);
    expect(first.cursor).toBe(CSV_BATCH);
    const second = await next(first.cursor);
    expect(second.rows).toEqual([[CSV_BATCH + 1], [CSV_BATCH + 2]]);
    expect(second.cursor).toBeNull();
    expect(asked).toEqual([null, CSV_BATCH]);
  });
});
