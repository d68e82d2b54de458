import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rowsOf, type Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/system.ts';
import { audit, auditRow } from './audit.ts';
import type { Ctx } from './context.ts';
import { AppError } from './errors.ts';
import { countingLast, countLast } from './money/four-eyes.ts';
import type { MoneyResult } from './money/movement.ts';
import type { Sent } from './routes.ts';

type StoredKey = Pick<typeof idempotencyKeys.$inferSelect, 'requestHash' | 'statusCode' | 'response'>;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{8,255}$/;

/** JSON with sorted keys, so the same body always hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(request: FastifyRequest): string {
  return createHash('sha256').update(`${request.method} ${request.url}\n${canonical(request.body)}`).digest('hex');
}

/** How long an identical money request without a key is taken for a duplicate (issue 22). */
export const KEYLESS_WINDOW_SECONDS = 60;
export const KEYLESS_DUPLICATE_MESSAGE =
  'This looks like a duplicate of a request you sent less than a minute ago: nothing was done. If you meant to do it twice, send it again with a new Idempotency-Key';

/**
 * A money request without an Idempotency-Key (issue 22, finding 11): an identical one (same
 * operator, method, address and body) that was done less than KEYLESS_WINDOW_SECONDS ago is
 * refused with 409. The request's own key is derived ("keyless " + the request's hash: a space is
 * never in a key a client may send) and kept in idempotency_keys with its time, in the movement's
 * transaction: a concurrent twin waits on it and is refused once it commits; a movement that was
 * refused or rolled back leaves no key, so sending it again is not a duplicate. An older key is
 * taken over (its time renewed); housekeeping clears old keys. The panel always sends a key.
 */
async function refuseKeylessDuplicate(tx: Db, ctx: Ctx, request: FastifyRequest): Promise<void> {
  const actorId = ctx.auth?.userId ?? 0;
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const hash = requestHash(request);
  const claimed = rowsOf(await tx.execute(sql`
    insert into idempotency_keys (actor_id, key, route, request_hash)
    values (${actorId}, ${`keyless ${hash}`}, ${route}, ${hash})
    on conflict (actor_id, key) do update set created_at = now(), status_code = null, response = null
     where idempotency_keys.created_at < now() - make_interval(secs => ${KEYLESS_WINDOW_SECONDS})
    returning actor_id`));
  if (claimed.length === 0) throw new AppError(409, KEYLESS_DUPLICATE_MESSAGE);
}

/**
 * Runs a money movement exactly once per Idempotency-Key (decisions.md). The key row is
 * inserted first, inside the same transaction as the movement: a concurrent duplicate blocks
 * on the key's primary key until the first commits, then finds the stored answer and replays
 * it; if the first rolls back, the key goes with it. A refusal (4xx) is remembered too, so a
 * retry answers the same; a key reused for another request is refused with 422.
 * Without the header the movement runs in one transaction, refused as a duplicate when an
 * identical one was done less than a minute ago (refuseKeylessDuplicate).
 */
export async function idempotent<T>(
  ctx: Ctx,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Db) => Promise<MoneyResult<T>>,
): Promise<Sent<T>> {
  const { db } = ctx.database;
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) {
    const result = await db.transaction(async (tx) => {
      await refuseKeylessDuplicate(tx, ctx, request);
      const done = await work(tx);
      await audit(tx, ctx, done.audit);
      await countLast(tx, done.dailyCount);
      return done;
    });
    result.afterCommit?.();
    return reply.code(result.status).send(result.body);
  }
  const key = Array.isArray(header) ? header[0] : header;
  if (!KEY_PATTERN.test(key)) {
    throw new AppError(400, 'Idempotency-Key must be 8 to 255 visible ASCII characters');
  }
  const actorId = ctx.auth!.userId;
  const hash = requestHash(request);
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;

  let outcome: { replay: StoredKey } | { result: MoneyResult<T> };
  try {
    outcome = await db.transaction(async (tx) => {
      const claimed = rowsOf(await tx.execute(sql`
        insert into idempotency_keys (actor_id, key, route, request_hash)
        values (${actorId}, ${key}, ${route}, ${hash})
        on conflict do nothing returning actor_id`));
      if (claimed.length === 0) {
        const [prior] = rowsOf<StoredKey>(await tx.execute(sql`
          select request_hash as "requestHash", status_code as "statusCode", response from idempotency_keys
           where actor_id = ${actorId} and key = ${key}`));
        return { replay: prior };
      }
      const result = await work(tx);
      const row = auditRow(ctx, result.audit);
      // The audit row, the key's answer and the maker's daily count: one statement, the last.
      await countingLast(tx, result.dailyCount, sql`
        logged as (
          insert into audit_log (actor_id, actor_name, action, entity, entity_id, before, after, ip)
          values (${row.actorId}::int8, (select full_name from users where user_id = ${row.actorId}::int8), ${row.action},
                  ${row.entity}, ${row.entityId}::text, ${JSON.stringify(row.before)}::jsonb,
                  ${JSON.stringify(row.after)}::jsonb, ${row.ip}::text)
        ),
        answered as (
          update idempotency_keys set status_code = ${result.status}, response = ${JSON.stringify(result.body)}::jsonb
           where actor_id = ${actorId} and key = ${key}
        )`);
      return { result };
    });
  } catch (err) {
    if (err instanceof AppError && err.statusCode < 500) {
      const body = { success: false, message: err.message, ...err.extra };
      await db.insert(idempotencyKeys)
        .values({ actorId, key, route, requestHash: hash, statusCode: err.statusCode, response: body })
        .onConflictDoNothing();
    }
    throw err;
  }

  if ('result' in outcome) {
    outcome.result.afterCommit?.();
    return reply.code(outcome.result.status).send(outcome.result.body);
  }
  const prior = outcome.replay;
  if (prior.requestHash !== hash) {
    throw new AppError(422, 'This Idempotency-Key was already used for a different request; send a new key for a new request');
  }
  if (prior.statusCode === null) {
    throw new AppError(409, 'A request with this Idempotency-Key is still being processed; retry shortly');
  }
  reply.header('idempotent-replayed', 'true');
  return reply.code(prior.statusCode).send(prior.response);
}
