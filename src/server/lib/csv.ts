import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export type CsvCell = string | number | Date | null;

const IST_OFFSET_MS = 330 * 60_000;
/** A UTC instant as written by the database driver or `toISOString()`. */
const utcInstant = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]00(:?00)?)$/;

/**
 * A moment as India time with its offset, `2026-11-25T19:07:00+05:30`, with `.123` where the moment has milliseconds (decisions.md: every time
 * in an export is India time and carries its offset, so a spreadsheet anywhere reads the same moment).
 */
export function indiaTimestamp(moment: Date): string {
  const local = new Date(moment.getTime() + IST_OFFSET_MS).toISOString();
  // Milliseconds only where there are some (an audit row's moment keeps its precision).
  return `${local.endsWith('.000Z') ? local.slice(0, 19) : local.slice(0, 23)}+05:30`;
}

/** Rows are read in keyset batches of this size: an export never holds the whole range in memory. */
export const CSV_BATCH = 1000;

/**
 * Quotes a cell when needed; text that a spreadsheet would run as a formula is defused. A moment (a
 * Date, or a UTC timestamp string) is written in India time with its offset; a plain day stays as it is.
 */
function cell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : indiaTimestamp(value);
  if (utcInstant.test(value)) {
    const moment = new Date(`${value.replace(' ', 'T').replace(/(Z|[+-]00(:?00)?)$/, '')}Z`);
    if (!Number.isNaN(moment.getTime())) return indiaTimestamp(moment);
  }
  // A plain number ('-10.00', a debit) is not a formula: only other text starting with = + - @ is defused.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const line = (cells: CsvCell[]) => `${cells.map(cell).join(',')}\r\n`;

/**
 * The `next` of `sendCsv` for rows read in keyset batches: `read(cursor, CSV_BATCH)` gives the rows
 * after the cursor (null: from the start), `cells` writes one row, and a full batch's last row's
 * `key` is where the next batch starts (a shorter batch is the last).
 */
export function keysetBatches<R, C>(batches: {
  read: (cursor: C | null, limit: number) => Promise<R[]>;
  cells: (row: R) => CsvCell[];
  key: (row: R) => C;
}): (cursor: C | null) => Promise<{ rows: CsvCell[][]; cursor: C | null }> {
  return async (cursor) => {
    const rows = await batches.read(cursor, CSV_BATCH);
    return { rows: rows.map(batches.cells), cursor: rows.length === CSV_BATCH ? batches.key(rows[rows.length - 1]) : null };
  };
}

/**
 * Streams a CSV: the header, then each batch as `next(cursor)` yields it, until it yields no
 * cursor. `next` gets the previous batch's cursor (null for the first batch).
 */
export async function sendCsv<C>(
  reply: FastifyReply,
  filename: string,
  header: string[],
  next: (cursor: C | null) => Promise<{ rows: CsvCell[][]; cursor: C | null }>,
): Promise<FastifyReply> {
  // The first batch is read before the answer starts, so a failing query is still a clean error.
  const first = await next(null);
  async function* lines() {
    yield `\uFEFF${line(header)}`;
    let batch = first;
    for (;;) {
      if (batch.rows.length > 0) yield batch.rows.map(line).join('');
      if (batch.cursor === null) return;
      batch = await next(batch.cursor);
    }
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}
