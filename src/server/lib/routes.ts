import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../contract/common.ts';
import {
  successStatus, type BodyOut, type EndpointGroup, type EndpointSpec, type ParamsOut, type QueryOut, type ReplyOf,
} from '../../contract/endpoint.ts';

/** The request a handler of endpoint E receives: params, query and body parsed by E's schemas. */
export type EndpointRequest<E> = FastifyRequest<{ Params: ParamsOut<E>; Querystring: QueryOut<E>; Body: BodyOut<E> }>;

declare const sentBody: unique symbol;

/**
 * A reply already sent with a body of type T (a money movement's answer, sent by `idempotent`):
 * a handler may return it only if T is one of the endpoint's declared replies. A reply sent
 * without saying what (a stream, a file) carries no T and passes. Without `then`: a FastifyReply
 * is thenable, and what an async handler returns is awaited, which would drop T.
 */
export type Sent<T> = Omit<FastifyReply, 'then'> & { readonly [sentBody]?: T };

/**
 * A route handler: HTTP only. It maps the request to a service's input and returns the answer
 * (sent with the endpoint's first success status), or sends on `reply` itself and returns it
 * (another status, a stream).
 */
export type Handler<E> = (request: EndpointRequest<E>, reply: FastifyReply) => Promise<ReplyOf<E> | Sent<ReplyOf<E>>>;

export type Handlers<G> = { [K in keyof G]: Handler<G[K]> };

/** Every error answer is `{ success: false, message, errors? }` unless the endpoint says otherwise. */
const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 415, 422, 429, 503] as const;
const errorResponses = Object.fromEntries(ERROR_STATUSES.map((status) => [status, errorResponse]));

/**
 * Registers a feature's routes from its contract: method, path, schemas and permission come from
 * the endpoint; the handlers object must have one handler per endpoint (a missing one does not
 * compile).
 */
export function registerEndpoints<G extends EndpointGroup>(fastify: FastifyInstance, group: G, handlers: Handlers<G>): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const name of Object.keys(group) as (keyof G & string)[]) {
    const endpoint: EndpointSpec & { group: string } = group[name];
    const handler = handlers[name] as unknown as Handler<unknown>;
    const status = successStatus(endpoint);
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      config: { access: endpoint.access, ...(endpoint.duringEnrolment ? { duringEnrolment: true } : {}) },
      ...(endpoint.bodyLimit ? { bodyLimit: endpoint.bodyLimit } : {}),
      schema: {
        tags: [endpoint.group],
        ...(endpoint.summary ? { summary: endpoint.summary } : {}),
        ...(endpoint.params ? { params: endpoint.params } : {}),
        ...(endpoint.query ? { querystring: endpoint.query } : {}),
        ...(endpoint.body && endpoint.multipart !== true ? { body: endpoint.body } : {}),
        ...(endpoint.multipart === true ? { consumes: ['multipart/form-data'] } : {}),
        response: { ...(endpoint.file ? {} : endpoint.responses), ...errorResponses, ...endpoint.errors },
      },
      handler: async (request, reply) => {
        const result = await handler(request as EndpointRequest<unknown>, reply);
        if (result === reply) return reply;
        if (reply.statusCode === 200 && status !== 200) reply.code(status);
        return result;
      },
    });
  }
}
