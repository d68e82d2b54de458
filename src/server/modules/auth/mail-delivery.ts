import type { FastifyRequest } from 'fastify';

/** A mail sent in the background: a failed delivery is logged, never the link. */
export function logFailedDelivery(request: FastifyRequest, delivery: Promise<void> | null, to: string, what: string) {
  delivery?.catch((error: unknown) => {
    request.log.error({ to, reason: error instanceof Error ? error.message : String(error) }, `the ${what} mail could not be sent`);
  });
}
