import { useRef } from 'react';
import { ApiError } from './api-client';

/**
 * What a money-moving POST answers: the spec's `{ success, message }` up to the approval
 * threshold; above it 202 with the request that now waits for a second operator (four eyes).
 */
export interface MoneyAnswer {
  success: true;
  message: string;
  data?: Record<string, unknown>;
}

/** The form's outcome for its page: a done movement, or one that awaits a second operator. */
export interface MoneyOutcome {
  message: string;
  awaitingApproval: boolean;
}

export const outcomeOf = (answer: MoneyAnswer): MoneyOutcome => ({
  message: answer.message,
  awaitingApproval: answer.data?.status === 'pending',
});

/**
 * One Idempotency-Key per distinct request of a form (issue 13 finding 9). A double click, or a
 * retry after a network failure or a server error, sends the same request and so the same key:
 * if the first one went through, the server replays its answer instead of moving money twice.
 * A changed request gets a new key, and so does the same request after a refusal (4xx): the
 * server stores a refusal under its key, so that key would only replay the refusal even once its
 * cause is fixed (a balance topped up meanwhile).
 */
export function useIdempotencyKey() {
  const last = useRef<{ request: string; key: string } | null>(null);

  const keyFor = (request: unknown): string => {
    const fingerprint = JSON.stringify(request);
    if (last.current?.request !== fingerprint) last.current = { request: fingerprint, key: crypto.randomUUID() };
    return last.current.key;
  };

  const settle = (error: unknown) => {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) last.current = null;
  };

  return { keyFor, settle };
}
