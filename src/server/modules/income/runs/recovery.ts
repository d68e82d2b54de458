import { sql } from 'drizzle-orm';
import { isoToWireDate, paiseToRupees } from '../../../../contract/common.ts';
import type { MemberRecovery, RunKind } from '../../../../contract/income-runs.ts';
import { rowsOf, type Db } from '../../../db/client.ts';
import { isoDate } from '../../../db/rows.ts';
import type { incomeRuns, runShortfalls } from '../../../db/schema/income.ts';
import type { users } from '../../../db/schema/members.ts';
import { AppError } from '../../../lib/errors.ts';

type Shortfall = typeof runShortfalls.$inferSelect;
/** What a member owes in all (users.recovery_paise). */
type OwedRow = { owed: (typeof users.$inferSelect)['recoveryPaise'] };
/** A shortfall not yet recovered, with its run's kind and period. */
type OpenShortfallRow = Pick<Shortfall, 'runId'> & Pick<typeof incomeRuns.$inferSelect, 'periodStart'> & {
  kind: RunKind;
  paise: Shortfall['shortfallPaise'];
  recovered: Shortfall['recoveredPaise'];
};

/**
 * Recoveries (issue 22): a reversal records what a member's balance no longer covered as a
 * shortfall of the run (run_shortfalls) and adds it to users.recovery_paise (reversal.repository
 * compensate); the member's next credits settle it first, oldest shortfall first, as ledger rows
 * of kind 'recovery' (drizzle/functions/recovery.sql, a trigger on ledger_entries, so every writer
 * settles). This reads what a member owes, for the member page.
 */
export async function memberRecovery(db: Db, userId: number): Promise<MemberRecovery> {
  const [member] = rowsOf<OwedRow>(await db.execute(sql`
    select recovery_paise::int8 as owed from users where user_id = ${userId} and deleted_at is null`));
  if (!member) throw new AppError(404, `Member ${userId} not found`);
  const rows = rowsOf<OpenShortfallRow>(await db.execute(sql`
    select s.run_id::int8 as "runId", r.kind, r.period_start::text as "periodStart", s.shortfall_paise::int8 as paise,
           s.recovered_paise::int8 as recovered
      from run_shortfalls s join income_runs r on r.run_id = s.run_id
     where s.user_id = ${userId} and s.recovered_paise < s.shortfall_paise
     order by s.created_at, s.run_id limit 100`));
  return {
    userId,
    owed: paiseToRupees(Number(member.owed)),
    shortfalls: rows.map((r) => ({
      runId: Number(r.runId), kind: r.kind, periodStart: isoToWireDate(isoDate(r.periodStart)),
      amount: paiseToRupees(Number(r.paise)), recovered: paiseToRupees(Number(r.recovered)),
    })),
  };
}
