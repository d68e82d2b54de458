import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isConflictFailure } from '../db/retry.ts';
import { AppError, inputProblem, invalidInput } from '../lib/errors.ts';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';


const PG_UNIQUE_VIOLATION = '23505';
const PG_FK_VIOLATION = '23503';
const PG_CHECK_VIOLATION = '23514';
// statement_timeout (STATEMENT_TIMEOUT_MS) cancelled the query: the server is busy, not broken.
const PG_QUERY_CANCELED = '57014';
// Class 22 "data exception": a value the database cannot take (integer out of range, a NUL
// character in text, an impossible date), so the request, not the server, is at fault.
const PG_DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;

/**
 * Errors Fastify raises before a request reaches any route (a malformed percent-encoding, an
 * over-long path parameter) bypass the error handler: give them the same JSON shape.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof err.statusCode === 'number' && err.statusCode < 500 ? err.statusCode : 400;
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : 'The address is not a valid URL';
  reply.code(status).send({ success: false, message });
}

/** Turns every error into `{ success: false, message, errors? }` with the right status. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError & { code?: string }, request, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.statusCode).send({ success: false, message: err.message, ...err.extra });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // Plain words for the operator ('Enter a valid email address'); each problem names its field.
      const problems = err.validation.map((v) =>
        inputProblem(err.validationContext ?? '', (v.instancePath || '').split('/').filter(Boolean), v.message ?? 'Invalid value'),
      );
      const refusal = invalidInput(problems);
      return reply.code(400).send({ success: false, message: refusal.message, ...refusal.extra });
    }
    // Constraint violations that slipped past the service's own checks are still the client's doing.
    // Drizzle wraps the driver's error (DrizzleQueryError) and keeps the SQLSTATE on its cause.
    const sqlState = err.code ?? (err.cause as { code?: unknown } | undefined)?.code;
    if (sqlState === PG_UNIQUE_VIOLATION) {
      return reply.code(409).send({ success: false, message: 'A record with these details already exists' });
    }
    if (sqlState === PG_FK_VIOLATION) {
      return reply.code(409).send({ success: false, message: 'This record is referenced by other records' });
    }
    if (sqlState === PG_CHECK_VIOLATION) {
      return reply.code(400).send({ success: false, message: 'The change would break a data rule' });
    }
    if (isConflictFailure(err)) {
      // A deadlock or serialization failure that was tried TRANSACTION_TRIES times (db/retry.ts):
      // the transaction rolled back, so nothing was written; the client may simply send it again.
      request.log.warn({ err }, 'transaction kept losing to concurrent changes');
      return reply.code(503).header('retry-after', '1').send({
        success: false,
        message: 'The database was busy with other changes to the same records, so nothing was done: send the request again in a moment',
      });
    }
    if (sqlState === PG_QUERY_CANCELED) {
      request.log.warn({ err }, 'query cancelled by the statement timeout');
      return reply.code(503).send({
        success: false,
        message: 'The database took too long to answer this request and it was stopped: narrow the filters, or try again in a moment',
      });
    }
    if (typeof sqlState === 'string' && PG_DATA_EXCEPTION.test(sqlState)) {
      // Logged, because a value the server itself computed wrongly would end up here too.
      request.log.warn({ err }, 'database refused a value');
      return reply.code(400).send({ success: false, message: 'A value is out of range or not valid' });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ success: false, message: clientMessage(err, status) });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ success: false, message: 'Internal server error' });
  });
}

function clientMessage(err: FastifyError, status: number): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type';
    default:
      return status === 404 ? 'Not found' : err.message || 'Bad request';
  }
}
