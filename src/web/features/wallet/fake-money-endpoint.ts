import { jsonResponse } from '../../test-utils';

type Answer = [status: number, payload: unknown];

/**
 * A money POST at the network edge that keeps Idempotency-Keys as the server does
 * (src/server/lib/idempotency.ts): a key replays its first answer, a refusal included, and the
 * same key with another body is refused with 422. `answer` decides what a new request gets.
 */
export function fakeMoneyEndpoint(answer: (body: Record<string, unknown>) => Answer) {
  const stored = new Map<string, { body: string; answer: Answer }>();
  const requests: { key: string | null; body: Record<string, unknown> }[] = [];
  const handle = (init: RequestInit): Response => {
    const key = new Headers(init.headers).get('Idempotency-Key');
    const text = String(init.body);
    const body = JSON.parse(text) as Record<string, unknown>;
    requests.push({ key, body });
    const prior = key === null ? undefined : stored.get(key);
    if (prior && prior.body !== text) {
      return jsonResponse(422, {
        success: false,
        message: 'This Idempotency-Key was already used for a different request; send a new key for a new request',
      });
    }
    const [status, payload] = prior?.answer ?? answer(body);
    if (key !== null && !prior && status < 500) stored.set(key, { body: text, answer: [status, payload] });
    return jsonResponse(status, payload);
  };
  return { handle, requests };
}

/** A done movement's answer, with every field the money endpoints' schemas require. */
export const movedAnswer = (message: string): Answer => [
  200,
  { success: true, message, data: { transactionId: 1, userId: 100002, amount: 1, balance: 1, payoutId: null, status: null } },
];

/** Refuses (400) the requests `refused` picks, with `refusal`; moves the others with `message`. */
export const refusingWhen = (refused: (body: Record<string, unknown>) => boolean, refusal: string, message: string) =>
  (body: Record<string, unknown>): Answer => (refused(body) ? [400, { success: false, message: refusal }] : movedAnswer(message));
