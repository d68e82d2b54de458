import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client.ts';
import type { users } from '../../../db/schema/members.ts';
import { inRange, type RunKindHandler, type Tally } from './kind.ts';
import { chunkCte, dailyDue, directsCte, memberCount, teamCtes, type PaidRow } from './team.ts';

/** A chunk's promotions: members gone through, the last of them (the cursor after), members promoted. */
type PromotedRow = Pick<Tally, 'units'> & PaidRow & { cursor: (typeof users.$inferSelect)['userId'] | null };

/**
 * Rank promotion (daily, issue 16): members who meet a higher rank's criteria move up to it,
 * never down.
 *
 * A rank can be earned when its status is true and at least one of its criteria is above 0; a
 * live member with status true qualifies for it with at least min_direct active direct referrals
 * (live, status true, holding an 'active' membership), min_team live members below them (all
 * levels, at most 50 deep) and min_business_paise of team business (the membership fees of every
 * member below them, all levels, all time). They move to the qualifying rank of the highest
 * position when it is above their current rank's (no rank is below all). The ladder (positions
 * and criteria) is fixed in the run's state when it begins. Each promotion is a rank_promotions
 * row and an audit row (actor: who started the run), in the chunk's statement.
 * Units: members (users) in id order.
 */

interface LadderRank {
  rankId: number;
  position: number;
  minDirect: number;
  minTeam: number;
  minBusinessPaise: number;
}

async function ladderOf(db: Db): Promise<LadderRank[]> {
  const rows = rowsOf<LadderRank>(await db.execute(sql`
    select rank_id as "rankId", position, min_direct as "minDirect", min_team as "minTeam",
           min_business_paise::int8 as "minBusinessPaise"
      from ranks where status and (min_direct > 0 or min_team > 0 or min_business_paise > 0)
     order by position desc, rank_id`));
  return rows.map((r) => ({
    rankId: Number(r.rankId), position: Number(r.position), minDirect: Number(r.minDirect), minTeam: Number(r.minTeam),
    minBusinessPaise: Number(r.minBusinessPaise),
  }));
}

const intArray = (values: number[]) => `{${values.join(',')}}`;

/**
 * The CTEs `ladder` and `best(user_id, from_rank, to_rank, to_position)` for the members of
 * `members` (with `directs` and `team` in scope): each member's highest qualifying rank above the
 * one they hold.
 */
function bestCtes(ladder: LadderRank[], members: SQL): SQL {
  return sql`
  ladder as (
    select * from unnest(${intArray(ladder.map((r) => r.rankId))}::int[], ${intArray(ladder.map((r) => r.position))}::int[],
                         ${intArray(ladder.map((r) => r.minDirect))}::int8[], ${intArray(ladder.map((r) => r.minTeam))}::int8[],
                         ${intArray(ladder.map((r) => r.minBusinessPaise))}::int8[])
           as l(rank_id, position, min_direct, min_team, min_business)
  ),
  measured as (
    select u.user_id, u.rank_id, cr.position as current_position,
           coalesce(d.n, 0) as directs, coalesce(t.size, 0) as team_size, coalesce(t.business, 0) as business
      from ${members} c join users u on u.user_id = c.user_id
      left join ranks cr on cr.rank_id = u.rank_id
      left join directs d on d.user_id = u.user_id
      left join team t on t.user_id = u.user_id
     where u.deleted_at is null and u.status
  ),
  best as (
    select distinct on (m.user_id) m.user_id, m.rank_id as from_rank, l.rank_id as to_rank, l.position as to_position
      from measured m join ladder l
        on m.directs >= l.min_direct and m.team_size >= l.min_team and m.business >= l.min_business
       and (m.current_position is null or l.position > m.current_position)
     order by m.user_id, l.position desc, l.rank_id
  )`;
}

export const rankPromotion: RunKindHandler = {
  kind: 'rank_promotion',
  periodOf: (day) => ({ start: day, end: day }),
  isDue: dailyDue,

  async begin(tx) {
    const ladder = await ladderOf(tx);
    return { total: ladder.length === 0 ? 0 : await memberCount(tx), state: { ladder } };
  },

  async step(tx, scope, cursor, limit) {
    const ladder = (scope.state.ladder ?? []) as LadderRank[];
    if (ladder.length === 0) return { units: 0, paid: 0, failed: 0, grossPaise: 0, deductionsPaise: 0, failedPaise: 0, cursor, done: true };
    const [row] = rowsOf<PromotedRow>(await tx.execute(sql`
      with recursive ${chunkCte(cursor, limit)}, ${directsCte(cursor)}, ${teamCtes(sql`chunk`, null)},
      ${bestCtes(ladder, sql`chunk`)},
      promoted as (
        update users u set rank_id = b.to_rank, updated_at = now() from best b
         where u.user_id = b.user_id and u.rank_id is not distinct from b.from_rank
        returning u.user_id, b.from_rank, b.to_rank
      ),
      recorded as (
        insert into rank_promotions (run_id, user_id, from_rank_id, to_rank_id)
        select ${scope.runId}::int8, user_id, from_rank, to_rank from promoted order by user_id
        returning user_id
      ),
      starter as (
        select r.started_by as actor_id, s.full_name as actor_name
          from income_runs r left join users s on s.user_id = r.started_by where r.run_id = ${scope.runId}::int8
      ),
      audited as (
        insert into audit_log (actor_id, actor_name, action, entity, entity_id, before, after)
        select (select actor_id from starter), (select actor_name from starter), 'rank_promoted', 'user', p.user_id::text,
               jsonb_build_object('rankId', p.from_rank), jsonb_build_object('rankId', p.to_rank, 'runId', ${scope.runId}::int8)
          from promoted p order by p.user_id
        returning 1
      )
      select (select units from bounds) as units, (select hi from bounds) as cursor,
             (select count(*) from recorded)::int8 as paid, (select count(*) from audited)::int8 as audited`));
    const units = Number(row?.units ?? 0);
    return {
      units, paid: Number(row?.paid ?? 0), failed: 0, grossPaise: 0, deductionsPaise: 0, failedPaise: 0,
      cursor: row?.cursor == null ? cursor : Number(row.cursor), done: units < limit,
    };
  },

  async preview(db) {
    const ladder = await ladderOf(db);
    if (ladder.length === 0) return { units: 0, paid: 0, failed: 0, grossPaise: 0, deductionsPaise: 0, failedPaise: 0 };
    const [row] = rowsOf<PaidRow>(await db.execute(sql`
      with recursive everyone as (select user_id from users), ${directsCte(null)}, ${teamCtes(sql`everyone`, null)},
      ${bestCtes(ladder, sql`everyone`)}
      select count(*)::int8 as paid from best`));
    return { units: await memberCount(db), paid: Number(row.paid), failed: 0, grossPaise: 0, deductionsPaise: 0, failedPaise: 0 };
  },

  /**
   * Puts back the run's promotions where the member still holds the rank the run gave them (a
   * later change by hand or by another run stands), each with an audit row.
   */
  async undo(tx, scope, members) {
    await tx.execute(sql`
      with back as (
        update users u set rank_id = p.from_rank_id, updated_at = now() from rank_promotions p
         where p.run_id = ${scope.runId}::int8 and ${inRange(sql`p.user_id`, members)} and u.user_id = p.user_id and u.rank_id = p.to_rank_id
        returning u.user_id, p.from_rank_id, p.to_rank_id
      ), starter as (
        select r.reversed_by as actor_id, s.full_name as actor_name
          from income_runs r left join users s on s.user_id = r.reversed_by where r.run_id = ${scope.runId}::int8
      )
      insert into audit_log (actor_id, actor_name, action, entity, entity_id, before, after)
      select (select actor_id from starter), (select actor_name from starter), 'rank_promotion_reversed', 'user', b.user_id::text,
             jsonb_build_object('rankId', b.to_rank_id, 'runId', ${scope.runId}::int8), jsonb_build_object('rankId', b.from_rank_id)
        from back b order by b.user_id`);
  },
};
