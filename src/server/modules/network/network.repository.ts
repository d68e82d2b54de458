import type { NetworkNode } from '../../../contract/network.ts';
import type { Database } from '../../db/client.ts';
import { iso } from '../users/users.repository.ts';

interface ChildRow {
  total: number | string;
  user_id: number | string | null;
  full_name: string;
  level: number;
  state: string | null;
  status: boolean;
  created_at: Date | string;
  deleted: boolean;
  direct_referrals: number | string;
}

/**
 * One page of a member's direct referrals, oldest first, each with the number of their own direct
 * referrals, and the total — in one statement. The children's ids are collected through
 * users_referred_by_idx first (materialized), so even a member with 100,000 direct referrals never
 * makes the planner walk the primary key hoping to meet them; the counts touch only the page's rows.
 */
export async function childrenPage(
  database: Database,
  userId: number,
  page: number,
  limit: number,
): Promise<{ total: number; nodes: NetworkNode[] }> {
  const rows = await database.query<ChildRow>(
    `with c as materialized (select user_id from users where referred_by = $1)
     select t.total, x.* from (select count(*) as total from c) t
     left join lateral (
       select u.user_id, u.full_name, u.level, u.state, u.status, u.created_at, u.deleted_at is not null as deleted,
              (select count(*) from users g where g.referred_by = u.user_id) as direct_referrals
         from (select user_id from c order by user_id limit $2 offset $3) p
         join users u on u.user_id = p.user_id
     ) x on true
     order by x.user_id`,
    [userId, limit, (page - 1) * limit],
  );
  const total = Number(rows[0]?.total ?? 0);
  const nodes = rows
    .filter((r) => r.user_id !== null)
    .map((r) => ({
      fullName: r.full_name,
      userId: Number(r.user_id),
      level: r.level,
      state: r.state,
      status: r.status,
      createDate: iso(r.created_at),
      deleted: r.deleted,
      directReferrals: Number(r.direct_referrals),
    }));
  return { total, nodes };
}

/** Any member, deleted or not: a deleted member's branch can still be opened. */
export async function memberExists(database: Database, userId: number): Promise<boolean> {
  const rows = await database.query('select 1 from users where user_id = $1', [userId]);
  return rows.length > 0;
}
