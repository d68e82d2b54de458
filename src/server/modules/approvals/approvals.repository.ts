import { sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import type { Approval, ApprovalKind, ApprovalStatus } from '../../../contract/approvals.ts';
import { rowsOf, type Database, type Db } from '../../db/client.ts';

interface ApprovalRow {
  id: number | string;
  kind: ApprovalKind;
  user_id: number | string;
  user_name: string;
  amount_paise: number | string;
  status: ApprovalStatus;
  maker_id: number | string;
  maker_name: string;
  checker_id: number | string | null;
  checker_name: string | null;
  remarks: string | null;
  payout_id: string | null;
  withdrawal_id: string | null;
  created_at: Date | string;
  decided_at: Date | string | null;
}

const COLUMNS = sql.raw(`r.id, r.kind, r.user_id, u.full_name as user_name, r.amount_paise, r.status,
  r.maker_id, coalesce(mk.full_name, 'Operator ' || r.maker_id) as maker_name,
  r.checker_id, case when r.checker_id is null then null else coalesce(ck.full_name, 'Operator ' || r.checker_id) end as checker_name,
  r.remarks, r.payload->>'payoutId' as payout_id, r.payload->>'withdrawalId' as withdrawal_id, r.created_at, r.decided_at`);

const FROM = sql.raw(`money_requests r
  join users u on u.user_id = r.user_id
  left join users mk on mk.user_id = r.maker_id
  left join users ck on ck.user_id = r.checker_id`);

const iso = (value: Date | string) => new Date(value).toISOString();
const idOrNull = (value: number | string | null) => (value === null ? null : Number(value));

function toApproval(r: ApprovalRow): Approval {
  return {
    id: Number(r.id),
    kind: r.kind,
    userId: Number(r.user_id),
    userName: r.user_name,
    amount: paiseToRupees(r.amount_paise),
    status: r.status,
    makerId: Number(r.maker_id),
    makerName: r.maker_name,
    checkerId: idOrNull(r.checker_id),
    checkerName: r.checker_name,
    remarks: r.remarks,
    payoutId: idOrNull(r.payout_id),
    withdrawalId: idOrNull(r.withdrawal_id),
    createdAt: iso(r.created_at),
    decidedAt: r.decided_at === null ? null : iso(r.decided_at),
  };
}

export async function approvalById(tx: Db, id: number): Promise<Approval | null> {
  const [row] = rowsOf<ApprovalRow>(await tx.execute(sql`select ${COLUMNS} from ${FROM} where r.id = ${id}`));
  return row ? toApproval(row) : null;
}

/** The queue: one status newest first, or every request with the pending ones first. */
export async function listApprovals(database: Database, status: ApprovalStatus | undefined, page: number, limit: number) {
  const where = status ? sql`where r.status = ${status}` : sql``;
  const order = status ? sql`r.created_at desc, r.id desc` : sql`(r.status = 'pending') desc, r.created_at desc, r.id desc`;
  const rows = rowsOf<ApprovalRow>(await database.db.execute(sql`
    select ${COLUMNS} from ${FROM} ${where} order by ${order} limit ${limit} offset ${(page - 1) * limit}`));
  const [count] = rowsOf<{ n: string }>(await database.db.execute(sql`
    select count(*)::text as n from money_requests r ${where}`));
  return { data: rows.map(toApproval), total: Number(count.n) };
}
