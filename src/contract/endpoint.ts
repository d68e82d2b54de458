import type { z } from 'zod';
import type { Access } from './permissions.ts';

/**
 * The registry of endpoints. Each feature's contract file declares its endpoints once, with
 * `endpoints('ranks', { list: { method, path, access, params?, query?, body?, responses } })`:
 * the server registers its routes from that (server/lib/routes.ts) and the panel's typed client
 * is built from it (web/lib/api-client.ts), so a path, a schema or a permission is written in
 * exactly one place.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

type Schema = z.ZodType;

export interface EndpointSpec {
  method: Method;
  /** The path under /api, with `:name` for each path parameter. */
  path: string;
  /** Who may call it; the server refuses everyone else before the body is even parsed. */
  access: Access;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** Success answers by status; the first one listed is what a plain return sends. */
  responses: { 200?: Schema; 201?: Schema; 202?: Schema };
  /** Error answers that carry more than `{ success: false, message, errors? }` (sign-in's 401). */
  errors?: { [status: number]: Schema };
  /** Not JSON: the answer is a streamed file (CSV exports), downloaded by the panel. */
  file?: 'csv';
  /**
   * multipart/form-data (an icon upload): `true` takes only multipart (the body schema then
   * describes its fields, which the route parses itself); `'optional'` takes JSON (checked by the
   * body schema) or multipart.
   */
  multipart?: boolean | 'optional';
  /** Largest request body in bytes, where an upload needs more than the server's 1 MiB default. */
  bodyLimit?: number;
  /** A session that must still set up two-factor may call it (me, logout, enrolment). */
  duringEnrolment?: boolean;
  summary?: string;
}

/** An endpoint as registered: its spec plus the feature (group) and the name it has there. */
export type Endpoint<S extends EndpointSpec = EndpointSpec> = S & { readonly group: string; readonly name: string };

export type EndpointGroup<G extends Record<string, EndpointSpec> = Record<string, EndpointSpec>> = {
  readonly [K in keyof G]: Endpoint<G[K]>;
};

/** Declares a feature's endpoints; `group` names the feature (and the panel's query-key family). */
export function endpoints<const G extends Record<string, EndpointSpec>>(group: string, specs: G): EndpointGroup<G> {
  const out: Record<string, Endpoint> = {};
  for (const [name, spec] of Object.entries(specs)) out[name] = { ...spec, group, name };
  return out as EndpointGroup<G>;
}

// ---- Types both sides derive from an endpoint ----

type SchemaAt<E, K extends string> = E extends { [P in K]: infer S extends Schema } ? S : never;

/** What the server's handler receives (after parsing, defaults applied). */
export type ParamsOut<E> = [SchemaAt<E, 'params'>] extends [never] ? unknown : z.output<SchemaAt<E, 'params'>>;
export type QueryOut<E> = [SchemaAt<E, 'query'>] extends [never] ? unknown : z.output<SchemaAt<E, 'query'>>;
export type BodyOut<E> = [SchemaAt<E, 'body'>] extends [never] ? unknown : z.output<SchemaAt<E, 'body'>>;

type Responses<E> = E extends { responses: infer R } ? R : never;
/** What the server may answer with (before serialisation): any declared success shape. */
export type ReplyOf<E> = { [K in keyof Responses<E>]: Responses<E>[K] extends Schema ? z.input<Responses<E>[K]> : never }[keyof Responses<E>];
/** What the panel gets back (after parsing): any declared success shape. */
export type ResultOf<E> = { [K in keyof Responses<E>]: Responses<E>[K] extends Schema ? z.output<Responses<E>[K]> : never }[keyof Responses<E>];

/** What the panel sends: path parameters, query and body, each only where the endpoint has one. */
export type CallInput<E> =
  & ([SchemaAt<E, 'params'>] extends [never] ? unknown : { params: z.input<SchemaAt<E, 'params'>> })
  & ([SchemaAt<E, 'query'>] extends [never] ? unknown : { query?: z.input<SchemaAt<E, 'query'>> })
  & ([SchemaAt<E, 'body'>] extends [never] ? unknown : { body: BodyIn<E> });

type BodyIn<E> = E extends { multipart: true } ? FormData
  : E extends { multipart: 'optional' } ? FormData | z.input<SchemaAt<E, 'body'>>
  : z.input<SchemaAt<E, 'body'>>;

/** The status a plain return answers with: the first success listed. */
export function successStatus(endpoint: EndpointSpec): number {
  return Number(Object.keys(endpoint.responses)[0] ?? 200);
}

/** The path with its `:name` parameters filled in (URL-encoded). */
export function pathOf(endpoint: EndpointSpec, params?: Record<string, unknown>): string {
  return endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${endpoint.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
