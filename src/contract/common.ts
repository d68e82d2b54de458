import { z } from 'zod';

/** Every error the API answers: `{ success: false, message, errors? }`. */
export const errorResponse = z.object({
  success: z.literal(false),
  message: z.string(),
  /** Refused input: each problem, with the field it belongs to ('' for the whole body). */
  errors: z.array(z.object({ path: z.string(), field: z.string().optional(), message: z.string() })).optional(),
  /** The sign-in call also carries its message here (spec §7: error text in data.message). */
  data: z.object({ message: z.string() }).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** A success that carries only a message (deleted, logged out, mail sent). */
export const messageResponse = z.object({ success: z.literal(true), message: z.string() });

/** Where a page stands: the total for paging, and the page asked for. */
export const pageInfo = { total: z.number(), page: z.number(), limit: z.number() };

/** One page of a list: the rows, the total for paging, and the page asked for. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ success: z.literal(true), data: z.array(item), ...pageInfo });

// ---- Money: integer paise in storage, rupees (max 2 decimals) on the wire ----

/** The largest amount one request may move: ₹10,00,00,000 (ten crore). */
export const MAX_RUPEES = 100_000_000;

/**
 * Whether a number is a whole number of hundredths (rupees and paise, percentages and basis
 * points): k / 100 is the double nearest to k hundredths, so this holds exactly for every
 * two-decimal value and for nothing else. The schemas use it, so that whatever they accept
 * rupeesToPaise converts (a looser check once let 100.000000005 through to a 500).
 */
export const hasTwoDecimals = (v: number) => Number.isFinite(v) && Math.round(v * 100) / 100 === v;

export function rupeesToPaise(rupees: number): number {
  const paise = Math.round(rupees * 100);
  if (!Number.isFinite(rupees) || Math.abs(paise / 100 - rupees) > 1e-9) {
    throw new RangeError(`Not a rupee amount with at most 2 decimals: ${rupees}`);
  }
  return paise;
}

/** Paise (bigint column, may arrive as string or bigint) to rupees for the wire. */
export function paiseToRupees(paise: number | bigint | string): number {
  const n = typeof paise === 'number' ? paise : Number(paise);
  return n / 100;
}

/**
 * A positive rupee amount with at most 2 decimals, within MAX_RUPEES. JSON bodies carry it as a
 * number: `true` or `"100"` is refused rather than coerced (a boolean would credit ₹1).
 */
export const rupeeAmount = z
  .number({ error: 'Amount must be a number' })
  .refine((v) => v > 0, 'Amount must be greater than 0')
  .refine((v) => v <= MAX_RUPEES, `Amount must not exceed ${MAX_RUPEES}`)
  .refine(hasTwoDecimals, 'Amount must have at most 2 decimals');

// ---- Wire dates: dd-mm-yyyy; inputs give yyyy-mm-dd ----

const WIRE_DATE = /^(\d{2})-(\d{2})-(\d{4})$/;

/** dd-mm-yyyy -> yyyy-mm-dd, or null when it is not a real calendar date. */
export function wireDateToIso(wire: string): string | null {
  const m = WIRE_DATE.exec(wire);
  if (!m) return null;
  const [, dd, mm, yyyy] = m;
  const d = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
  if (d.getUTCFullYear() !== Number(yyyy) || d.getUTCMonth() !== Number(mm) - 1 || d.getUTCDate() !== Number(dd)) {
    return null;
  }
  return `${yyyy}-${mm}-${dd}`;
}

/** yyyy-mm-dd (a date input's value) -> dd-mm-yyyy. */
export function isoToWireDate(iso: string): string {
  const [yyyy, mm, dd] = iso.slice(0, 10).split('-');
  return `${dd}-${mm}-${yyyy}`;
}

/** A dd-mm-yyyy query value, parsed to yyyy-mm-dd. */
export const wireDate = z
  .string()
  .transform((v, ctx) => {
    const iso = wireDateToIso(v);
    if (!iso) {
      ctx.addIssue({ code: 'custom', message: 'Date must be a real date in dd-mm-yyyy format' });
      return z.NEVER;
    }
    return iso;
  });

/** An optional fromDate/toDate pair; a reversed range is refused. */
export const wireDateRange = z
  .object({ fromDate: wireDate.optional(), toDate: wireDate.optional() })
  .refine((r) => !r.fromDate || !r.toDate || r.fromDate <= r.toDate, {
    message: 'fromDate must not be after toDate',
    path: ['fromDate'],
  });

/**
 * Offset paging reads and throws away every row before the page, so a list is served only down
 * to this many rows; deeper, the client narrows its filters or exports the list to CSV.
 */
export const MAX_PAGED_ROWS = 10_000;
export const DEEP_PAGE_MESSAGE =
  'Only the first 10,000 rows of a list can be paged through: narrow the filters, or export the list to CSV';

/** True when a page reaches past the first MAX_PAGED_ROWS rows of its list. */
export const pageTooDeep = (page: number, limit: number) => page * limit > MAX_PAGED_ROWS;

/**
 * Server-side paging for every long list. The depth rule needs page and limit together, and list
 * schemas spread `paging.shape` into their own objects (which would drop a refinement here), so
 * the server checks `pageTooDeep` once for every route whose validated query has both.
 */
/**
 * A list's order on the wire: a column key, ascending (`sort=fullName`) or descending
 * (`sort=-fullName`). Each list names the keys it can sort by, every one served by an index.
 */
export type SortValue<K extends string> = K | `-${K}`;

export function sortParam<const K extends string>(keys: readonly K[], fallback: SortValue<NoInfer<K>>) {
  const values = keys.flatMap((k) => [k, `-${k}`]) as [SortValue<K>, ...SortValue<K>[]];
  return z.enum(values, { error: `Sort must be one of: ${values.join(', ')}` }).default(fallback as never);
}

/** `-fullName` → { key: 'fullName', desc: true }. */
export function sortParts<K extends string>(sort: SortValue<K>): { key: K; desc: boolean } {
  return sort.startsWith('-') ? { key: sort.slice(1) as K, desc: true } : { key: sort as K, desc: false };
}

/** The page size a list answers when none is asked for, and the one the screens ask for. */
export const DEFAULT_PAGE_LIMIT = 25;

export const paging = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(DEFAULT_PAGE_LIMIT),
});
