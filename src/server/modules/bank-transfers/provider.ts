import { createHmac } from 'node:crypto';

/**
 * The payout provider interface (docs/bank-transfers.md): what sends a released batch's lines to
 * a bank and tells what became of each. A real provider (a bank's payout API) implements `send` and
 * `status` and calls our signed webhook (POST /api/bank-transfers/webhook, header X-Bank-Signature:
 * hex HMAC-SHA256 of the raw body) with { reference, status, utr, reason, eventId }. Without a
 * provider the operator uploads the instruction file and imports the bank's response file; both
 * paths apply answers through the same function (applyAnswers).
 */
export interface ProviderLine {
  id: number;
  reference: string;
  amountPaise: number;
  beneficiaryName: string;
  accountNumber: string;
  ifsc: string;
}

export interface ProviderStatus {
  reference: string;
  status: 'PENDING' | 'SUCCESS' | 'REJECTED';
  utr: string | null;
  reason: string | null;
}

export interface PayoutProvider {
  readonly name: string;
  /** Hands the lines to the bank; answers come later through the webhook. */
  send(lines: ProviderLine[]): Promise<void>;
  /** What the bank says of one transfer now, or null if it does not know the reference. */
  status(reference: string): Promise<ProviderStatus | null>;
}

/** What the simulator does with a line. */
export type Scenario = 'instant' | 'delayed' | 'reject' | 'duplicate' | 'out_of_order';

export interface SimulatorOptions {
  secret: string;
  /** Delivers one webhook: the raw JSON body and its signature (the server's own route, or a test's request). */
  deliver: (raw: string, signature: string) => Promise<void>;
  /** The scenario of a line; by default by the line id (…0 rejected, …1 delayed, …2 duplicated, …3 out of order, else instant). */
  scenario?: (line: ProviderLine) => Scenario;
  /** How long a delayed success takes (ms). */
  delayMs?: number;
}

export const defaultScenario = (line: ProviderLine): Scenario =>
  (['reject', 'delayed', 'duplicate', 'out_of_order'] as const)[line.id % 10] ?? 'instant';

/**
 * The built-in simulator, for the demo and the tests: instant success, delayed success (PENDING
 * then SUCCESS), rejection, a duplicated SUCCESS, and out-of-order webhooks (the SUCCESS arrives
 * before the PENDING that preceded it). Every webhook is signed as a real provider would sign it.
 * `idle()` resolves when every delivery it scheduled has been made.
 */
export function simulatorProvider(o: SimulatorOptions): PayoutProvider & { idle(): Promise<void>; sent: string[] } {
  const known = new Map<string, ProviderStatus>();
  const inFlight = new Set<Promise<void>>();
  const sent: string[] = [];
  let events = 0;
  const utrOf = (line: ProviderLine) => `SIMN${String(line.id).padStart(12, '0')}`;

  async function fire(line: ProviderLine, status: ProviderStatus['status'], reason: string | null = null) {
    const utr = status === 'SUCCESS' ? utrOf(line) : null;
    if (status !== 'PENDING' || !known.has(line.reference)) known.set(line.reference, { reference: line.reference, status, utr, reason });
    const raw = JSON.stringify({ eventId: `sim-${++events}`, reference: line.reference, status, utr, reason });
    sent.push(raw);
    await o.deliver(raw, createHmac('sha256', o.secret).update(raw).digest('hex')).catch(() => undefined);
  }

  const later = (ms: number, work: () => Promise<void>) => {
    const p = new Promise<void>((resolve) => setTimeout(() => { void work().finally(resolve); }, ms));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  return {
    name: 'simulator',
    sent,
    async send(lines) {
      const scenario = o.scenario ?? defaultScenario;
      for (const line of lines) {
        switch (scenario(line)) {
          case 'instant':
            await fire(line, 'SUCCESS');
            break;
          case 'delayed':
            await fire(line, 'PENDING');
            later(o.delayMs ?? 50, () => fire(line, 'SUCCESS'));
            break;
          case 'reject':
            await fire(line, 'REJECTED', 'Account closed');
            break;
          case 'duplicate':
            await fire(line, 'SUCCESS');
            await fire(line, 'SUCCESS');
            break;
          case 'out_of_order':
            await fire(line, 'SUCCESS');
            await fire(line, 'PENDING');
            break;
        }
      }
    },
    async status(reference) {
      return known.get(reference) ?? null;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
