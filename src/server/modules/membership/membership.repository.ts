import { paiseToRupees } from '../../../contract/common.ts';
import type { Member } from '../../../contract/membership.ts';
import type { Database } from '../../db/client.ts';
import { iso } from '../users/users.repository.ts';

interface MemberRow {
  user_id: number | string;
  full_name: string;
  email: string;
  phone: string;
  status: boolean;
  amount_paise: number | string;
  balance_paise: number | string;
  created_at: Date | string;
}

const toMember = (r: MemberRow): Member => {
  const userId = Number(r.user_id);
  return {
    _id: String(userId),
    id: userId,
    userId,
    fullName: r.full_name,
    name: r.full_name,
    email: r.email,
    phone: r.phone,
    status: r.status,
    amount: paiseToRupees(r.amount_paise),
    currentAmount: paiseToRupees(r.balance_paise),
    dateTime: iso(r.created_at),
  };
};

/**
 * Memberships of live members, newest first. fromDate/toDate are whole days in India time
 * (yyyy-mm-dd after parsing); the range is a created_at range on memberships_created_at_idx. The
 * unfiltered total is the trigger-kept counter.
 */
export async function listMembers(
  database: Database,
  f: { fromDate?: string; toDate?: string; page: number; limit: number },
): Promise<{ data: Member[]; total: number }> {
  const where = ['u.deleted_at is null'];
  const params: unknown[] = [];
  if (f.fromDate) where.push(`m.created_at >= ($${params.push(f.fromDate)}::date)::timestamp at time zone 'Asia/Kolkata'`);
  if (f.toDate) where.push(`m.created_at < ($${params.push(f.toDate)}::date + 1)::timestamp at time zone 'Asia/Kolkata'`);
  const filter = where.join(' and ');
  const countParams = [...params];
  const rows = await database.query<MemberRow>(
    `select u.user_id, u.full_name, u.email, u.phone, u.status, m.amount_paise, u.balance_paise, m.created_at
       from memberships m join users u on u.user_id = m.user_id
      where ${filter}
      order by m.created_at desc, m.id desc limit $${params.push(f.limit)} offset $${params.push((f.page - 1) * f.limit)}`,
    params,
  );
  const [count] = f.fromDate || f.toDate
    ? await database.query<{ n: number | string }>(
        `select count(*) as n from memberships m join users u on u.user_id = m.user_id where ${filter}`,
        countParams,
      )
    : await database.query<{ n: number | string }>(`select value as n from stat_counters where name = 'membership_users'`);
  return { data: rows.map(toMember), total: Number(count?.n ?? 0) };
}
