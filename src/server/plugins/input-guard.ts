import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';

const MAX_DEPTH = 64;

/** The first problem in a parsed value: a NUL character (PostgreSQL text cannot hold one) or absurd nesting. */
function problemIn(value: unknown, depth: number): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? 'Text must not contain NUL characters' : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return `The request is nested more than ${MAX_DEPTH} levels deep`;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const problem = problemIn(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/**
 * Refuses, before any handler runs, input no route can use: a NUL character anywhere in the
 * query, path or JSON body would otherwise fail deep inside a query (or a streamed CSV, after
 * its headers are sent), and a body nested thousands of levels deep costs validation time.
 */
export function registerInputGuard(app: FastifyInstance): void {
  // A callback hook: no promise per request.
  app.addHook('preValidation', (request, _reply, done) => {
    const problem = problemIn(request.params, 0) ?? problemIn(request.query, 0) ?? problemIn(request.body, 0);
    done(problem ? new AppError(400, problem) : undefined);
  });
}
