import fc from 'fast-check';
import type { JsonSchema } from './shapes.ts';

/** Strings an attacker or a broken client sends: SQL and HTML meta-characters, traversal, odd unicode. */
export const HOSTILE_STRINGS = [
  '', ' ', '   padded   ', "'", '"', '\\', "' OR '1'='1", "'; drop table users; --", '1; select pg_sleep(5)', '$1',
  '%', '_', '%%', "Robert'); DELETE FROM ledger_entries;--", '<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>', 'javascript:alert(1)', '{{7*7}}', '${7*7}', '../../../../etc/passwd', '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/etc/passwd\u0000.png', 'a\u0000b', '\u0000', '\u202eevil\u202c', 'zero\u200bwidth',
  'é', 'e\u0301', 'İstanbul', 'ß', '日本語の名前', '😀👨‍👩‍👧‍👦', '\ud83d', '\udc00x', '\uffff', '\t\n\r', 'null', 'undefined',
  'NaN', 'Infinity', '-Infinity', '1e309', '0x10', '1,000.50', ' 12 ', '+91', '-0', '00012', 'true', '[]', '{}',
  '__proto__', 'constructor', 'a'.repeat(257), 'x'.repeat(5000), 'ab'.repeat(40_000),
];

/** Numbers at and past every edge: negative, fractional paise, beyond 2^53 and bigint, tiny. */
export const HOSTILE_NUMBERS = [
  0, -0, -1, 1, 0.001, 0.005, 0.015, 1.005, 12.345, 99.999, -0.01, 0.1 + 0.2, 1e-7, 2 ** 31, 2 ** 31 - 1, -(2 ** 31),
  2 ** 53, 2 ** 53 + 2, 2 ** 63, 1e15, 1e16, 92233720368547.77, 1e21, 1e308, -1e308, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER,
];

/** Dates on the wire are dd-mm-yyyy: impossible, out-of-range and wrong-format ones. */
export const HOSTILE_DATES = [
  '31-02-2024', '29-02-2023', '00-00-0000', '32-01-2024', '01-13-2024', '01-01-0000', '01-01-0001', '31-12-9999',
  '01-01-99999', '1-1-2024', '2024-01-01', '01/01/2024', '01-01-2024T00:00', '01-01-2024 ', 'today', '-01-01-2024',
  '01-01-1900', '31-12-2099',
];

const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
};

/** Values of the wrong type for any field. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, [1, 2], { $gt: '' }, { __proto__: { admin: true } }, ['a'], nested(40, 1)),
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...HOSTILE_STRINGS),
);

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_DATES) },
);

const dd = (n: number) => String(n).padStart(2, '0');
export const wireDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => `${dd(d.getUTCDate())}-${dd(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`);

/** A rupee amount with at most two decimals, as a valid client sends it. */
const rupees = fc.integer({ min: 1, max: 5_000_000 }).map((paise) => paise / 100);

/** A plausible value for one schema: valid most of the time, so requests get past validation. */
export function plausible(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
  if (schema.anyOf?.length) return fc.oneof(...schema.anyOf.map((s) => plausible(s, name)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  let value: fc.Arbitrary<unknown>;
  switch (type) {
    case 'boolean':
      value = fc.boolean();
      break;
    case 'integer': {
      const min = Math.max(schema.minimum ?? 1, -1_000_000);
      const max = Math.min(schema.maximum ?? 1_000_000, 1_000_000);
      value = fc.oneof(fc.integer({ min: Math.max(min, 2), max: Math.max(Math.min(max, 80), min) }), fc.integer({ min, max }));
      break;
    }
    case 'number':
      value = rupees;
      break;
    case 'array':
      value = fc.array(plausible(schema.items ?? {}, name), { maxLength: Math.min(schema.maxItems ?? 5, 5) });
      break;
    case 'object':
      value = fc.constant({});
      break;
    default:
      value = plausibleString(schema, name);
  }
  return schema.nullable ? fc.option(value, { nil: null, freq: 8 }) : value;
}

function plausibleString(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  if (/date|dob/i.test(name)) return wireDate;
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 1000) && s.length >= (schema.minLength ?? 0));
  }
  return fc.string({ unit: 'grapheme', minLength: Math.max(schema.minLength ?? 0, 1), maxLength: Math.max(maxLength, schema.minLength ?? 1) });
}

/** A hostile value for one field: valid-looking, hostile of its type, or of the wrong type. */
export function fieldValue(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const ofItsType: fc.Arbitrary<unknown> =
    type === 'integer' || type === 'number' ? fc.constantFrom(...HOSTILE_NUMBERS) : type === 'boolean' ? wrongType : hostileString;
  return fc.oneof(
    { weight: 5, arbitrary: plausible(schema, name) },
    { weight: 3, arbitrary: ofItsType },
    { weight: 1, arbitrary: wrongType },
  );
}
