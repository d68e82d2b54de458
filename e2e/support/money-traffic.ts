import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/server/db/client.ts';
import { moneyInvariantViolations } from '../../src/server/lib/money-invariants.ts';

/** One money request the crash test sends, and what became of it. */
export interface MoneyRequest {
  key: string;
  path: '/api/wallets/userWalletRecharge' | '/api/transferAdmin';
  body: { userId: number; amount: number; transactionType?: string; typeIncome?: string; payoutId?: number };
  /** Set when the server answered 2xx: the ledger entry it reported. */
  transactionId?: number;
  status?: number;
  /** Set when the connection failed (the server died with the request in flight). */
  lost?: boolean;
}

export interface FailedPayout {
  id: number;
  userId: number;
  amount: number;
}

/**
 * Recharges with an amount unique to each request (1,000.00 + n paise), so each one can be
 * found in the ledger by member and amount alone (`first` continues the numbering of an earlier batch), interleaved with payments of failed payouts.
 */
export function moneyRequests(memberIds: number[], payouts: FailedPayout[], count: number, first = 0): MoneyRequest[] {
  const out: MoneyRequest[] = [];
  let p = 0;
  for (let i = first; i < first + count; i += 1) {
    const key = `crash-${randomUUID()}`;
    if (i % 4 === 3 && p < payouts.length) {
      const payout = payouts[p++];
      out.push({ key, path: '/api/transferAdmin', body: { userId: payout.userId, amount: payout.amount, typeIncome: 'dailyPayout', payoutId: payout.id } });
    } else {
      out.push({
        key,
        path: '/api/wallets/userWalletRecharge',
        body: { userId: memberIds[i % memberIds.length], amount: (100_000 + i) / 100, transactionType: 'wallet_recharge' },
      });
    }
  }
  return out;
}

/** Sends one request with its Idempotency-Key; a dropped connection marks it lost. */
export async function send(baseUrl: string, token: string, r: MoneyRequest): Promise<{ status: number; replayed: boolean; transactionId?: number } | null> {
  try {
    const res = await fetch(`${baseUrl}${r.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': r.key },
      body: JSON.stringify(r.body),
    });
    const body = (await res.json()) as { data?: { transactionId?: number } };
    return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', transactionId: body.data?.transactionId };
  } catch {
    return null;
  }
}

const toPaise = (rupees: number) => Math.round(rupees * 100);

/**
 * What the database must show after the crash and the retries: every request exactly once in
 * the ledger under the transaction id it was answered with, no payout half-paid, and every
 * balance equal to the sum of its ledger rows (and never negative).
 */
export async function ledgerProblems(database: Database, requests: MoneyRequest[], recordedSince: string): Promise<string[]> {
  const problems: string[] = [];
  for (const r of requests) {
    const kind = r.path === '/api/transferAdmin' ? 'daily_payout' : 'wallet_recharge';
    const rows = await database.query<{ id: string }>(
      // A payout the engine wrote is paid as +gross then −TDS −admin charge (issue 16): the payout row
      // links the gross credit and its amount is the net the request names.
      kind === 'daily_payout'
        ? `select l.id::text from ledger_entries l join daily_payouts p on p.ledger_entry_id = l.id
            where p.id = $5 and l.user_id = $1 and l.kind = $2 and p.amount_paise = $3 and l.created_at >= $4
              and l.amount_paise = coalesce(p.gross_paise, p.amount_paise)`
        : `select id::text from ledger_entries where user_id = $1 and kind = $2 and amount_paise = $3 and created_at >= $4
            and $5::bigint is null`,
      [r.body.userId, kind, toPaise(r.body.amount), recordedSince, r.body.payoutId ?? null],
    );
    if (rows.length !== 1) problems.push(`${r.key} (${r.path} ${JSON.stringify(r.body)}): ${rows.length} ledger rows`);
    else if (r.transactionId !== undefined && Number(rows[0].id) !== r.transactionId) {
      problems.push(`${r.key}: answered transaction ${r.transactionId}, ledger has ${rows[0].id}`);
    }
  }
  const recharges = requests.filter((r) => r.path === '/api/wallets/userWalletRecharge').length;
  const [{ n }] = await database.query<{ n: string }>(
    `select count(*)::text as n from ledger_entries where kind = 'wallet_recharge' and created_at >= $1`, [recordedSince],
  );
  if (Number(n) !== recharges) problems.push(`${n} recharge rows for ${recharges} recharge requests`);
  const halfPaid = await database.query<{ id: string; status: string }>(`
    select p.id::text, p.status from daily_payouts p left join ledger_entries l on l.id = p.ledger_entry_id
     where (p.status = 'Success' and p.paid_at >= $1 and (l.id is null or l.amount_paise <> coalesce(p.gross_paise, p.amount_paise)
            or l.user_id <> p.user_id
            -- its deductions, each exactly once: the lines net to the payout's amount
            or (select coalesce(sum(d.amount_paise), 0) from ledger_entries d
                 where d.user_id = p.user_id and d.kind in ('tds', 'admin_charge') and d.created_at >= $1
                   and d.description in ('TDS on daily payout for ' || p.payout_date::text, 'Admin charge on daily payout for ' || p.payout_date::text))
               <> -(p.tds_paise + p.admin_charge_paise)))
        or (p.status = 'Failure' and p.ledger_entry_id is not null)`, [recordedSince]);
  for (const p of halfPaid) problems.push(`payout ${p.id} is half-written (${p.status})`);
  const orphans = await database.query<{ id: string }>(`
    select l.id::text from ledger_entries l where l.kind = 'daily_payout' and l.created_at >= $1
       and not exists (select 1 from daily_payouts p where p.ledger_entry_id = l.id)`, [recordedSince]);
  for (const o of orphans) problems.push(`ledger entry ${o.id} pays no payout`);
  return [...problems, ...(await moneyInvariantViolations(database))];
}
