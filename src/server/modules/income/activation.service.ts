import { isoToWireDate, paiseToRupees } from '../../../contract/common.ts';
import { LEVELS, percentToBp, type ActivationBody, type activationApi, type MembershipDetail } from '../../../contract/income.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import type { Db } from '../../db/client.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import type { MoneyResult, MoneyContext } from '../../lib/money/movement.ts';
import { aboveThreshold, formatRupees, holdForApproval, refuseOwnWallet } from '../../lib/money/four-eyes.ts';
import * as repo from './activation.repository.ts';
import { requireMemberWallet } from '../wallet/wallet.service.ts';
import { MAX_WALK } from './level-income.ts';
import { addDays } from './settings.ts';

/**
 * Membership activation (issue 16, decisions.md "The income engine"). In one transaction: the
 * membership with the terms of the plan version in force today (India time), the fee
 * (membership_fee; paid outside it comes in first as external_payment), and the uplines' level
 * income. Paid outside and above the approval threshold it is only filed (202) and a second
 * operator's approval replays this function. Activation does not count towards the operator's
 * daily credit limit: the fee is revenue, and level income is the plan's own rule, not an
 * operator's credit.
 */
export async function activateMembership(tx: Db, money: MoneyContext, body: ActivationBody): Promise<MoneyResult<ReplyOf<typeof activationApi.activate>>> {
  refuseOwnWallet(money, body.userId);
  await requireMemberWallet(tx, body.userId); // staff hold no wallet nor membership (issue 22)
  const outside = body.paidVia === 'outside';
  const { day, member, terms, planExists, settings, settingsVersionId, pendingRequestId } =
    await repo.activationInputs(tx, body.userId, body.planId, outside);
  if (!member) throw new AppError(404, `Member ${body.userId} not found`);
  if (!member.status) throw new AppError(400, `Member ${body.userId} is inactive: only an active member can take a membership`);
  if (!terms) {
    if (planExists) throw new AppError(400, `Plan ${body.planId} is not on sale yet: its first version starts later`);
    throw new AppError(404, `Plan ${body.planId} not found`);
  }
  if (!terms.active) throw new AppError(400, `Plan ${terms.name} is inactive and cannot be sold`);
  const method = outside ? (body.method ?? null) : null;
  const reference = outside ? (body.reference ?? null) : null;

  if (pendingRequestId !== null) {
    throw new AppError(409, `An activation of member ${body.userId} already awaits approval (request ${pendingRequestId})`);
  }
  // Paid outside, the platform receives nothing it can check: the activation is judged by what it
  // will pay (the plan's cap, the most its daily payouts can ever come to), not by its price.
  if (outside && aboveThreshold(money, terms.capPaise)) {
    if (await repo.hasMembership(tx, body.userId)) throw alreadyMember(body.userId);
    return holdForApproval(tx, money, {
      kind: 'membership_activation', userId: body.userId, amountPaise: terms.pricePaise,
      payload: {
        ...body,
        details: {
          plan: `${terms.name} (version ${terms.versionId})`, price: formatRupees(terms.pricePaise), cap: formatRupees(terms.capPaise),
          dailyAmount: formatRupees(terms.dailyPaise), durationDays: terms.durationDays, method, reference,
        },
      },
      reason: `Paid outside the wallet, plan ${terms.name} can pay up to ${formatRupees(terms.capPaise)} (its cap), above the approval threshold of ${formatRupees(money.approvalThresholdPaise)}: this activation awaits approval by a second operator`,
    });
  }

  // Everything that writes is one statement (repo.postActivation): the membership, the fee and
  // the uplines' level income, with the uplines locked in id order.
  const startsOn = addDays(day, 1);
  const planLabel = `${terms.name} (version ${terms.versionId})`;
  const posted = await repo.postActivation(tx, {
    userId: body.userId,
    planId: terms.planId,
    planVersionId: terms.versionId,
    pricePaise: terms.pricePaise,
    dailyPaise: terms.dailyPaise,
    capPaise: terms.capPaise,
    durationDays: terms.durationDays,
    startsOn,
    paidVia: body.paidVia,
    paymentMethod: method,
    paymentReference: reference,
    activatedBy: money.makerId,
    approvedBy: money.approved ? money.actorId : null,
  }, {
    externalDescription: outside ? `Membership ${planLabel} paid outside the wallet: ${method}, reference ${reference}` : null,
    feeDescription: outside ? `Membership ${planLabel}, paid by ${method} (reference ${reference})` : `Membership ${planLabel}, paid from the wallet`,
    actorId: money.actorId,
    levelBp: settings.levelIncome.map(percentToBp),
    compression: settings.compression,
    maxDepth: settings.compression ? MAX_WALK : LEVELS,
  });
  if (posted.outcome === 'gone') throw new AppError(404, `Member ${body.userId} not found`);
  if (posted.outcome === 'member') throw alreadyMember(body.userId);
  if (posted.outcome === 'short') {
    throw new AppError(400, `Insufficient wallet balance: the member has ${rupees(posted.balancePaise)} and ${rupees(terms.pricePaise)} was requested`);
  }
  const { membershipId, shares } = posted;
  const fee = { entryId: posted.feeEntryId, balancePaise: posted.balancePaise };

  const membership: MembershipDetail = {
    membershipId, userId: body.userId, planId: terms.planId, planName: terms.name, planVersionId: terms.versionId,
    price: paiseToRupees(terms.pricePaise), dailyAmount: paiseToRupees(terms.dailyPaise), durationDays: terms.durationDays,
    cap: paiseToRupees(terms.capPaise), earned: 0, daysEarned: 0, status: 'active', startsOn: isoToWireDate(startsOn),
    paidVia: body.paidVia, paymentMethod: method, paymentReference: reference, activatedAt: posted.createdAt,
  };
  const levelTotal = shares.reduce((sum, s) => sum + s.amountPaise, 0);
  const levelIncome = shares.map((s) => ({ level: s.level, userId: s.userId, amount: paiseToRupees(s.amountPaise) }));
  return {
    status: 201,
    body: {
      success: true,
      message: `Membership ${terms.name} activated for member ${body.userId}; it earns from ${isoToWireDate(startsOn)}`,
      data: { membership, levelIncome, balance: paiseToRupees(fee.balancePaise) },
    },
    audit: {
      action: 'membership_activated',
      entity: 'membership',
      entityId: membershipId,
      after: {
        userId: body.userId,
        planId: terms.planId,
        planName: terms.name,
        planVersionId: terms.versionId,
        feePaise: terms.pricePaise,
        fee: formatRupees(terms.pricePaise),
        paidVia: body.paidVia,
        paymentMethod: method,
        paymentReference: reference,
        feeEntryId: fee.entryId,
        dailyPaise: terms.dailyPaise,
        capPaise: terms.capPaise,
        durationDays: terms.durationDays,
        startsOn,
        settingsVersionId,
        compression: settings.compression,
        levelIncomeTotalPaise: levelTotal,
        levelIncome: shares,
        makerId: money.makerId,
        approvedBy: money.approved ? money.actorId : null,
      },
    },
  };
}

/** As postEntry words a refused debit. */
const rupees = (paise: number) => paiseToRupees(paise).toFixed(2);

const alreadyMember = (userId: number) =>
  new AppError(409, `Member ${userId} already has a membership: a member holds one membership`);

/** GET /income/memberships/:userId: the member's membership, or null when they have none. */
export async function membershipOfMember(ctx: Ctx, userId: number): Promise<MembershipDetail | null> {
  const { db } = ctx.database;
  if (!(await repo.liveMember(db, userId))) throw new AppError(404, `Member ${userId} not found`);
  return repo.membershipOf(db, userId);
}
