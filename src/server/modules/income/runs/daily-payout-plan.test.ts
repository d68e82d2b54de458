import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../../db/client.ts';
import { createTestApp, type TestContext } from '../../../test/harness.ts';
import { unitsOf } from './daily-payout.ts';

// The daily payout's chunk reads each membership's payout of the day, if any. PostgreSQL's
// statistics never hold the day being paid (a new date), so the planner expects no payout on it
// and would read the day's payouts by date for each membership: the payouts the run's earlier
// chunks wrote, 12 minutes for one day at 1,000,000 members. The lookup must go by (user, day).
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ members: 200 });
});
afterAll(() => t.close());

type PlanNode = { 'Relation Name'?: string; 'Index Name'?: string; 'Node Type': string; Plans?: PlanNode[] };
type ExplainRow = { 'QUERY PLAN': string | { Plan: PlanNode }[] };

function scansOf(node: PlanNode, table: string): string[] {
  const own = node['Relation Name'] === table ? [`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim()] : [];
  return [...own, ...(node.Plans ?? []).flatMap((p) => scansOf(p, table))];
}

it('looks each membership’s payout of the day up in daily_payouts_user_day_uq, whatever the statistics say of the day', async () => {
  // What the planner sees before a day's run: members with payouts on many past days, none on the day.
  await t.database.query(`
    insert into daily_payouts (user_id, payout_date, amount_paise, status, reason)
    select u.user_id, current_date - 100 + d, 100, 'Failure', 'Plan test'
      from (select user_id from users where not can_sign_in order by user_id limit 200) u cross join generate_series(1, 60) d`);
  await t.database.query('analyze daily_payouts');
  const day = (await t.database.query<{ day: string }>(`select (current_date - 20)::text as day`))[0].day;
  // A run's chunk, and the preview's whole set of active memberships.
  for (const units of [unitsOf(day, { cursor: 0, limit: 40_000 }), unitsOf(day)]) {
    const [row] = rowsOf<ExplainRow>(await t.database.db.execute(sql`explain (format json) ${units}`));
    const plan = typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN'];
    expect(scansOf(plan[0].Plan, 'daily_payouts')).toEqual(['Index Scan daily_payouts_user_day_uq']);
  }
});
