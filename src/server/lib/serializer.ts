import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * Responses are written by a serializer compiled from the contract's schemas (issue 23): the rows a
 * handler built itself are not validated again on the way out. As with the zod pass it replaces,
 * only the properties the contract names are written (a column added to a query never leaks), and
 * a missing required property is an error, not a silently shorter answer. The panel's typed client
 * still validates everything it receives.
 *
 * Compiled once per schema per process: many apps (the tests build one per file) share them.
 */
const compiled = new WeakMap<object, (data: unknown) => string>();

type Json = { [key: string]: unknown };

/**
 * `anyOf: [X, { type: 'null' }]` (zod's `.nullable()`) as `type: [X's type, 'null']`: the
 * serializer writes a nullable property directly instead of testing each value against the branches.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) out[key] = simplify(value);
  const anyOf = out.anyOf as Json[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullAt = anyOf.findIndex((b) => b.type === 'null' && Object.keys(b).length === 1);
    const other = anyOf[1 - nullAt];
    if (nullAt >= 0 && typeof other?.type === 'string' && !('anyOf' in other) && !('$ref' in other)) {
      const { anyOf: _branches, ...rest } = out;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

/** The JSON Schema of what a contract schema writes (its output side). */
export function responseJsonSchema(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as Json;
  delete json.$schema;
  return simplify(json) as Json;
}

export function contractSerializerCompiler({ schema }: { schema: unknown }): (data: unknown) => string {
  const key = schema as object;
  let serialize = compiled.get(key);
  if (!serialize) {
    serialize = fastJson(responseJsonSchema(schema as z.ZodType) as never) as (data: unknown) => string;
    compiled.set(key, serialize);
  }
  return serialize;
}
