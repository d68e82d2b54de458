import { paiseToRupees } from '../../../contract/common.ts';
import { royaltyDisplayLevel } from '../../../contract/reports.ts';
import type { Database } from '../../db/client.ts';
import { CREDIT_COLUMNS, NAME_MATCH, sourceOf, type BatchRow, type CreditRow, type IncomeFilters } from './income.repository.ts';
import { containsPattern, IST_RANGE } from './revenue.repository.ts';

/**
 * The Royalty and Reward Income CSV exports, batch after batch: every line a report's page sums,
 * read in keyset order so that an export never aggregates or holds the whole range.
 */

/** A level income credit, with its level read off the description. */
type LevelCreditRow = CreditRow & { level: string | null };

export interface IncomeKeyset {
  batchIndex: number;
  id: number;
}

/**
 * One CSV batch: the receivers of the range's batches, batch by batch, each in ledger-id order
 * (keyset), so the export never aggregates or holds the whole range.
 */
export async function incomeCsvBatch(
  database: Database, f: IncomeFilters, batches: BatchRow[], after: IncomeKeyset | null, size: number,
) {
  let { batchIndex, id } = after ?? { batchIndex: 0, id: 0 };
  while (batchIndex < batches.length) {
    const b = batches[batchIndex];
    const params: unknown[] = [b.batchId, id, size];
    if (f.userName) params.push(containsPattern(f.userName));
    const rows = await database.query<CreditRow>(`
      select ${CREDIT_COLUMNS}
        from ledger_entries l join users u on u.user_id = l.user_id left join ranks r on r.rank_id = u.rank_id
       where l.batch_id = $1 and l.id > $2 ${f.userName ? `and ${NAME_MATCH(4)}` : ''}
       order by l.id limit $3`, params);
    if (rows.length > 0) {
      const next = rows.length === size ? { batchIndex, id: rows[rows.length - 1].id } : batchIndex + 1 < batches.length
        ? { batchIndex: batchIndex + 1, id: 0 } : null;
      return {
        rows: rows.map((r) => {
          const amount = paiseToRupees(r.amountPaise);
          return [b.batchId, sourceOf(b), b.runDate, r.userId, r.userName, r.rankName ?? 'No Rank',
            `Level ${royaltyDisplayLevel(r.rankName, amount)}`, amount.toFixed(2), r.createdAt];
        }),
        cursor: next,
      };
    }
    batchIndex += 1;
    id = 0;
  }
  return { rows: [], cursor: null };
}

/**
 * The Level Income export (issue 24): level income has no batches, so its lines are read straight
 * from the ledger, the range's level_income credits in id order (keyset), through
 * ledger_kind_created_idx (kind, created_at); the level is the one its description names.
 */
export async function levelIncomeCsvBatch(database: Database, f: IncomeFilters, after: IncomeKeyset | null, size: number) {
  const params: unknown[] = [f.fromDate, f.toDate, after?.id ?? 0, size];
  if (f.userName) params.push(containsPattern(f.userName));
  const rows = await database.query<LevelCreditRow>(`
    select ${CREDIT_COLUMNS}, substring(l.description from '^Level ([0-9]+) ') as level
      from ledger_entries l join users u on u.user_id = l.user_id left join ranks r on r.rank_id = u.rank_id
     where l.kind = 'level_income' and ${IST_RANGE} and l.id > $3 ${f.userName ? `and ${NAME_MATCH(5)}` : ''}
     order by l.id limit $4`, params);
  return {
    rows: rows.map((r) => [
      '', 'Level income', istDayOf(r.createdAt), r.userId, r.userName, r.rankName ?? 'No Rank',
      r.level === null ? '' : `Level ${r.level}`, paiseToRupees(r.amountPaise).toFixed(2), r.createdAt,
    ]),
    cursor: rows.length === size ? { batchIndex: 0, id: Number(rows[rows.length - 1].id) } : null,
  };
}

/** The India day (yyyy-mm-dd) of a moment given as ISO text. */
function istDayOf(moment: string): string {
  return new Date(Date.parse(moment) + 330 * 60_000).toISOString().slice(0, 10);
}

