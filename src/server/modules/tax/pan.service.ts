import { sql } from 'drizzle-orm';
import { maskPan, type MemberPan, type PanChangeRequest, type taxApi } from '../../../contract/tax.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import type { moneyRequests } from '../../db/schema/money.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { moneyContext, type MoneyReply, type MoneyResult, type MoneyContext } from '../../lib/money/movement.ts';
import { holdForApproval } from '../../lib/money/four-eyes.ts';
import { settingsOn, istToday } from '../income/settings.service.ts';

/**
 * A member's PAN (issue 25, docs/tax.md). It decides the TDS rate on their payouts (with a PAN the
 * settings' tdsPercent, section 194H; without, tdsWithoutPanPercent, section 206AA), so setting or
 * changing it is a four-eyes change: filed as a `pan_change` request (202) and written only when a
 * second operator with money_approve approves it. Every answer and audit row shows it masked.
 */

const NOT_FOUND = 'Member not found';
const AWAITS = 'The PAN awaits approval by a second operator on the Approvals screen; the member keeps their current PAN until then';

interface MemberRow { userId: number; pan: string | null; canSignIn: boolean; fullName: string }

async function memberRow(db: Db, userId: number, lock: boolean): Promise<MemberRow | null> {
  const [row] = rowsOf<MemberRow>(await db.execute(sql`
    select user_id::int8 as "userId", pan, can_sign_in as "canSignIn", full_name as "fullName"
      from users where user_id = ${userId} and deleted_at is null ${lock ? sql`for update` : sql``}`));
  return row ? { ...row, userId: Number(row.userId) } : null;
}

/** A pending PAN change: its request and the PAN it asks for. */
type PendingPanRow = Pick<typeof moneyRequests.$inferSelect, 'id'> & { pan: string };

async function pendingOf(db: Db, userId: number): Promise<{ id: number; pan: string } | null> {
  const [row] = rowsOf<PendingPanRow>(await db.execute(sql`
    select id, payload->>'pan' as pan from money_requests
     where status = 'pending' and kind = 'pan_change' and user_id = ${userId} order by id limit 1`));
  return row ? { id: Number(row.id), pan: row.pan } : null;
}

/** GET /tax/pan/:userId: the PAN masked, and a change waiting for approval (masked too). */
export async function memberPan(ctx: Ctx, userId: number): Promise<MemberPan> {
  const { db } = ctx.database;
  const member = await memberRow(db, userId, false);
  if (!member) throw new AppError(404, NOT_FOUND);
  const pending = await pendingOf(db, userId);
  return { userId, pan: maskPan(member.pan), pending: pending && { approvalId: pending.id, pan: maskPan(pending.pan)! } };
}

/** What the checker reads beside the request: the PAN before and after (masked) and the TDS rate each means. */
async function details(db: Db, before: string | null, after: string) {
  const { settings } = await settingsOn(db, await istToday(db));
  const rate = (pan: string | null) => (pan === null
    ? `${settings.tdsWithoutPanPercent} % (section 206AA, no PAN)`
    : `${settings.tdsPercent} % (section 194H)`);
  return { before: { pan: maskPan(before) ?? 'None', tds: rate(before) }, after: { pan: maskPan(after), tds: rate(after) } };
}

/**
 * PUT /tax/pan/:userId: files the PAN for a second operator. A member only (staff are not paid),
 * one pending change per member, and a change to the PAN they already have is refused.
 */
export async function requestPanChange(ctx: Ctx, userId: number, pan: string): Promise<MoneyResult<ReplyOf<typeof taxApi.setPan>>> {
  return ctx.database.db.transaction(async (tx) => {
    const member = await memberRow(tx, userId, true);
    if (!member) throw new AppError(404, NOT_FOUND);
    if (member.canSignIn) throw new AppError(400, `A PAN belongs to a member: user ${userId} is a staff account that signs in to this panel`);
    if (member.pan === pan) {
      throw new AppError(400, 'This member already has this PAN', { errors: [{ path: 'body.pan', field: 'pan', message: 'This member already has this PAN' }] });
    }
    const pending = await pendingOf(tx, userId);
    if (pending) throw new AppError(409, `A PAN change for this member already awaits approval (request ${pending.id})`);
    const request: PanChangeRequest = { userId, pan, before: member.pan };
    const money = moneyContext(ctx);
    const held = await holdForApproval(tx, money, {
      kind: 'pan_change', userId, amountPaise: 0, payload: { ...request, details: await details(tx, member.pan, pan) }, reason: AWAITS,
    });
    // The request's audit row shows the PANs masked, like everywhere else.
    await audit(tx, ctx, {
      ...held.audit,
      after: { kind: 'pan_change', userId, status: 'pending', before: { pan: maskPan(member.pan) }, after: { pan: maskPan(pan) }, makerId: money.makerId },
    });
    return held;
  });
}

/**
 * A checker approves a filed PAN (approvals.service replays it): written only if the member still
 * has the PAN they had when it was filed. Audited with both PANs masked.
 */
export async function applyPanChange(tx: Db, money: MoneyContext, request: PanChangeRequest): Promise<MoneyResult<MoneyReply<MemberPan>>> {
  const member = await memberRow(tx, request.userId, true);
  if (!member) throw new AppError(404, `${NOT_FOUND}: reject the request`);
  if (member.pan !== request.before) {
    throw new AppError(409, 'This member\u2019s PAN was changed after the request was filed; reject the request and file the change again');
  }
  if (money.actorId === member.userId) throw new AppError(403, 'You cannot approve a change of your own PAN');
  await tx.execute(sql`update users set pan = ${request.pan}, updated_at = now() where user_id = ${request.userId}`);
  const data: MemberPan = { userId: member.userId, pan: maskPan(request.pan), pending: null };
  return {
    status: 200,
    body: { success: true, message: `PAN of ${member.fullName} set to ${maskPan(request.pan)}`, data },
    audit: {
      action: 'pan_change', entity: 'user', entityId: member.userId,
      before: { pan: maskPan(member.pan) }, after: { pan: maskPan(request.pan), makerId: money.makerId },
    },
  };
}
