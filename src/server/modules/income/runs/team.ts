import { sql, type SQL } from 'drizzle-orm';
import type { IncomeSettings } from '../../../../contract/income.ts';
import { postSet } from '../../../db/books.ts';
import { rowsOf, type Db } from '../../../db/client.ts';
import type { CountRow } from '../../../db/rows.ts';
import { downlineWalkCte } from '../../network/tree.ts';
import { addDays } from '../settings.ts';
import type { RunPeriod, RunScope, Tally } from './kind.ts';

/**
 * What the royalty, reward and rank-promotion runs share: their periods, when they are due, the
 * chunk of members a step goes through, and the network figures they measure a member by (active
 * direct referrals, team size, team business), each one set-based statement part.
 */

/** A preview's count of the members a run would credit (or promote): `count(*)::int8 as paid`. */
export type PaidRow = Pick<Tally, 'paid'>;

/** How deep a walk down the referral tree goes ("all levels", bounded). */
export const TEAM_DEPTH = 50;

/** The calendar month holding `day`. */
export function monthOf(day: string): RunPeriod {
  const [y, m] = day.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return { start: `${y}-${mm}-01`, end: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}

/** The ISO week (Monday to Sunday) holding `day`. */
export function isoWeekOf(day: string): RunPeriod {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const start = addDays(day, -weekday);
  return { start, end: addDays(start, 6) };
}

/** A daily kind is due on a past day, or today once the payout time has passed. */
export function dailyDue(period: RunPeriod, settings: IncomeSettings, now: { day: string; time: string }): boolean {
  return period.end < now.day || (period.end === now.day && now.time >= settings.payoutTime);
}

/** A month or week kind is due once its period is over. */
export const periodOver = (period: RunPeriod, _settings: IncomeSettings, now: { day: string }) => period.end < now.day;

/** The period's end as a timestamp bound: everything created before the day after it, India time. */
export const endBound = (period: RunPeriod) => sql`((${period.end}::date + 1)::timestamp at time zone 'Asia/Kolkata')`;
export const startBound = (period: RunPeriod) => sql`(${period.start}::date::timestamp at time zone 'Asia/Kolkata')`;

/** The CTE `chunk(user_id)`: the next `limit` members after `cursor`, in id order (a PK range). */
export const chunkCte = (cursor: number, limit: number) => sql`
  chunk as (select user_id from users where user_id > ${cursor}::int8 order by user_id limit ${limit}::int),
  bounds as (select max(user_id) as hi, count(*)::int8 as units from chunk)`;

/**
 * The CTE `directs(user_id, n)`: active direct referrals per member of the chunk (a referral is
 * active when live, status true and holding an 'active' membership). One range scan of
 * users_referred_by_idx over the chunk's ids, each referral's membership by its unique user id.
 * With `everyone`, the whole table grouped at once (previews).
 */
export const directsCte = (cursor: number | null) => sql`
  directs as (
    select c.referred_by as user_id, count(*)::int8 as n
      from users c join memberships m on m.user_id = c.user_id and m.status = 'active'
     where c.deleted_at is null and c.status and c.referred_by is not null
       ${cursor === null ? sql`` : sql`and c.referred_by > ${cursor}::int8 and c.referred_by <= (select hi from bounds)`}
     group by c.referred_by)`;

/**
 * The CTEs `team_walk` (the network's downline walk, network/tree.ts) and `team(user_id, size,
 * business)` for the members of `roots` (a CTE name with a user_id column): size = live members below (all levels, at most TEAM_DEPTH), business =
 * the membership fees of everyone below (all levels), only fees sold within `within` when given.
 * Walks down the tree from the roots through users_referred_by_idx; over a whole run every member
 * is visited once per ancestor (members × average depth), the top of the tree in the first chunk.
 * Needs `with recursive`.
 */
export function teamCtes(roots: SQL, within: RunPeriod | null): SQL {
  const feeWindow = within ? sql`and m.created_at >= ${startBound(within)} and m.created_at < ${endBound(within)}` : sql``;
  return sql`
  ${downlineWalkCte(roots, TEAM_DEPTH)},
  team as (
    select w.root as user_id, count(*) filter (where w.live)::int8 as size, coalesce(sum(m.amount_paise), 0)::int8 as business
      from team_walk w left join memberships m on m.user_id = w.member ${feeWindow}
     group by w.root)`;
}

/** The chunk's counts: members gone through and the cursor after them. */

/** A chunk of credits of a royalty or reward run: the CTEs that define `award(user_id, amount)`, and how many units the chunk took and where it ended. */
export interface CreditChunk {
  recursive?: boolean;
  with: SQL;
  units: SQL;
  cursor: SQL;
  kind: 'royalty' | 'reward';
  description: string;
}

/**
 * Posts a chunk's credits as one transfer of the run and its income batch (db/books.ts): each
 * member's line, in member order, and the company's expense leg for all of them.
 */
export async function creditChunk(tx: Db, scope: RunScope, chunk: CreditChunk, cursor: number, limit: number) {
  const posted = await postSet(tx, { kind: chunk.kind, runId: scope.runId, batchId: scope.batchId, description: chunk.description }, {
    recursive: chunk.recursive,
    with: chunk.with,
    lines: sql`
      select user_id as ord, null::int8 as id, user_id, ${chunk.kind}::text as kind, amount::int8 as amount_paise, ${scope.batchId}::int as batch_id,
             ${chunk.description}::text as description, null::int8 as reversal_of
        from award where amount > 0`,
    select: sql`${chunk.units} as units, ${chunk.cursor} as cursor`,
  });
  const row = posted.row as { units: number | string | null; cursor: number | string | null };
  const units = Number(row.units ?? 0);
  return {
    units,
    paid: posted.lines,
    failed: 0,
    grossPaise: posted.totalPaise,
    deductionsPaise: 0,
    failedPaise: 0,
    cursor: row.cursor == null ? cursor : Number(row.cursor),
    done: units < limit,
  };
}

/** Members in all (the progress bar's total for kinds that go through every member). */
export async function memberCount(db: Db): Promise<number> {
  const [row] = rowsOf<CountRow>(await db.execute(sql`select count(*)::int8 as n from users`));
  return Number(row.n);
}
