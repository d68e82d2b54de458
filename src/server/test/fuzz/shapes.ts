import type { FastifyInstance } from 'fastify';
import type { RouteAccess } from '../../plugins/auth.ts';

/** The JSON Schema subset the route schemas use (as @fastify/swagger renders the zod schemas). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  nullable?: boolean;
  anyOf?: JsonSchema[];
}

export interface Param {
  name: string;
  schema: JsonSchema;
}

/** What a route accepts, read from the OpenAPI description the server publishes itself. */
export interface RouteShape extends RouteAccess {
  pathParams: Param[];
  query: Param[];
  /** The declared JSON body; a write route without one (multipart upload) gets every known field. */
  body: JsonSchema | null;
}

interface OpenApiOperation {
  parameters?: ({ in: string } & Param)[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
}

/** Every registered /api route (app.routeList) with the parameters and body its schema declares. */
export function routeShapes(app: FastifyInstance): RouteShape[] {
  const doc = (app as unknown as { swagger(): { paths: Record<string, Record<string, OpenApiOperation>> } }).swagger();
  const shapes = app.routeList.map((route) => {
    const openApiPath = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op = doc.paths[openApiPath]?.[route.method.toLowerCase()] ?? {};
    const params = op.parameters ?? [];
    const content = op.requestBody?.content ?? {};
    const declaredPathParams = [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
    return {
      ...route,
      pathParams: declaredPathParams.map((name) => params.find((p) => p.in === 'path' && p.name === name) ?? { name, schema: { type: 'string' } }),
      query: params.filter((p) => p.in === 'query'),
      body: content['application/json']?.schema ?? null,
    };
  });
  const everyField: JsonSchema = { type: 'object', properties: {} };
  for (const s of shapes) Object.assign(everyField.properties!, s.body?.properties);
  for (const s of shapes) if (!s.body && s.method !== 'GET' && s.method !== 'DELETE') s.body = everyField;
  return shapes;
}
