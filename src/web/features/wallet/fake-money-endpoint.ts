import { fireEvent, within } from '@testing-library/react';
import { expect } from 'vitest';
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

export type FakeMoneyEndpoint = ReturnType<typeof fakeMoneyEndpoint>;

/** A done movement's answer, with every field the money endpoints' schemas require. */
export const movedAnswer = (message: string): Answer => [
  200,
  { success: true, message, data: { transactionId: 1, userId: 100002, amount: 1, balance: 1, payoutId: null, status: null } },
];

/** Refuses (400) the requests `refused` picks, with `refusal`; moves the others with `message`. */
export const refusingWhen = (refused: (body: Record<string, unknown>) => boolean, refusal: string, message: string) =>
  (body: Record<string, unknown>): Answer => (refused(body) ? [400, { success: false, message: refusal }] : movedAnswer(message));

/** Types into the dialog's Amount field as a person does (focus, change, blur); returns the field. */
export function typeAmount(dialog: HTMLElement, text: string) {
  const field = within(dialog).getByLabelText('Amount');
  fireEvent.focus(field);
  fireEvent.change(field, { target: { value: text } });
  fireEvent.blur(field);
  return field;
}

/** Types an amount the form must refuse and submits: the field keeps it as typed, marked, `message` shows, nothing is sent. */
export async function expectRefusedAsTyped(endpoint: FakeMoneyEndpoint, dialog: HTMLElement, typed: string, form: { submit: string; message: string }) {
  const field = typeAmount(dialog, typed);
  expect(field).toHaveProperty('value', typed);
  fireEvent.click(within(dialog).getByRole('button', { name: form.submit }));
  expect(await within(dialog).findByText(form.message)).toBeTruthy();
  expect(field).toHaveProperty('value', typed);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(endpoint.requests).toHaveLength(0);
}

/** The request sent after a refusal carries `body` under a key of its own, not the refused one's. */
export function expectCorrectedUnderNewKey(endpoint: FakeMoneyEndpoint, body: Record<string, unknown>) {
  const [refused, corrected] = endpoint.requests;
  expect(corrected.body).toEqual(body);
  expect(corrected.key).toBeTruthy();
  expect(corrected.key).not.toBe(refused.key);
}
