import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Money out to banks (issue 25, drizzle/0031, docs/bank-transfers.md). No triggers read these
 * tables; every balance they cause moves through db/books.ts (release, settle, return).
 */
export const BANK_BATCH_STATUSES = ['draft', 'pending_release', 'released', 'closed', 'cancelled'] as const;
export type BankBatchStatus = (typeof BANK_BATCH_STATUSES)[number];
export const BANK_LINE_STATUSES = ['queued', 'in_transit', 'settled', 'returned', 'cancelled'] as const;
export type BankLineStatus = (typeof BANK_LINE_STATUSES)[number];

/** A batch of transfers to members' banks: gathered (draft), asked to release, released (four eyes), closed when every line is answered. */
export const bankBatches = pgTable(
  'bank_batches',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    status: text('status').$type<BankBatchStatus>().notNull().default('draft'),
    /** The instruction file's layout (docs/bank-transfers.md). */
    template: text('template').notNull().default('hdfc'),
    createdBy: bigint('created_by', { mode: 'number' }).notNull(),
    releasedBy: bigint('released_by', { mode: 'number' }),
    /** The bank_batch_release approval request. */
    approvalId: bigint('approval_id', { mode: 'number' }),
    /** The transfer withdrawals_payable -> bank_in_transit; a return corrects it. */
    releaseTransferId: bigint('release_transfer_id', { mode: 'number' }),
    lines: integer('lines').notNull().default(0),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull().default(0),
    settledLines: integer('settled_lines').notNull().default(0),
    settledPaise: bigint('settled_paise', { mode: 'number' }).notNull().default(0),
    returnedLines: integer('returned_lines').notNull().default(0),
    returnedPaise: bigint('returned_paise', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /** A draft cancelled (drizzle/0033): its lines are 'cancelled' and gathered again. */
    cancelledBy: bigint('cancelled_by', { mode: 'number' }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    check('bank_batches_status_check', sql`${t.status} IN ('draft', 'pending_release', 'released', 'closed', 'cancelled')`),
    index('bank_batches_status_idx').on(t.status, t.id),
    uniqueIndex('bank_batches_approval_uq').on(t.approvalId).where(sql`${t.approvalId} IS NOT NULL`),
  ],
);

/** One withdrawal sent to a member's bank, with the account as it was when gathered. */
export const bankTransferLines = pgTable(
  'bank_transfer_lines',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    batchId: bigint('batch_id', { mode: 'number' }).notNull().references(() => bankBatches.id),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /** The wallet_withdrawal or bank_payout ledger line it pays: unique among live (not cancelled) lines, sent once. */
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }).notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    beneficiaryName: text('beneficiary_name').notNull(),
    accountNumber: text('account_number').notNull(),
    ifsc: text('ifsc').notNull(),
    bankName: text('bank_name'),
    /** BT<batch>-<line id> (a CHECK says so; unique through the id): what the bank's answer names. */
    reference: text('reference').notNull(),
    status: text('status').$type<BankLineStatus>().notNull().default('queued'),
    /** The status is 'cancelled' (a CHECK says so): kept apart so that no index reads the status (drizzle/0037). */
    cancelled: boolean('cancelled').notNull().default(false),
    utr: text('utr'),
    returnReason: text('return_reason'),
    inTransitSince: timestamp('in_transit_since', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    settleTransferId: bigint('settle_transfer_id', { mode: 'number' }),
    /** The bank_return transfer crediting the member: unique, a return credits once. */
    returnTransferId: bigint('return_transfer_id', { mode: 'number' }),
    /**
     * The bank_returns request holding this line's return (drizzle/0040): a rejection in an
     * imported file waits for a second operator; the line stays in transit meanwhile.
     */
    returnApprovalId: bigint('return_approval_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('bank_transfer_lines_amount_positive', sql`${t.amountPaise} > 0`),
    check('bank_transfer_lines_reference_named', sql`${t.reference} = 'BT' || ${t.batchId} || '-' || ${t.id}`),
    check('bank_transfer_lines_status_check', sql`${t.status} IN ('queued', 'in_transit', 'settled', 'returned', 'cancelled')`),
    check('bank_transfer_lines_cancelled_status', sql`${t.cancelled} = (${t.status} = 'cancelled')`),
    uniqueIndex('bank_transfer_lines_live_entry_uq').on(t.ledgerEntryId).where(sql`NOT ${t.cancelled}`),
    uniqueIndex('bank_transfer_lines_return_uq').on(t.returnTransferId).where(sql`${t.returnTransferId} IS NOT NULL`),
    index('bank_transfer_lines_batch_idx').on(t.batchId, t.id),
    index('bank_transfer_lines_user_idx').on(t.userId, t.id),
    index('bank_transfer_lines_return_approval_idx').on(t.returnApprovalId, t.id).where(sql`${t.returnApprovalId} IS NOT NULL`),
  ],
);

/**
 * The lines in transit (status in_transit), one row each: added by the release, taken away by the
 * settlement or the return in the same transaction. Its own table so that no index of
 * bank_transfer_lines reads the status and a settlement is a HOT update (drizzle/0037, which also
 * gives bank_transfer_lines fillfactor 50). The money invariants check it against the lines.
 */
export const bankInTransit = pgTable(
  'bank_in_transit',
  {
    lineId: bigint('line_id', { mode: 'number' }).primaryKey(),
    batchId: bigint('batch_id', { mode: 'number' }).notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
  },
  (t) => [index('bank_in_transit_since_idx').on(t.since, t.lineId)],
);

/**
 * Each UTR a bank gave a settled line, once: one bank transaction pays one line. An answer naming
 * a UTR already here for another line, or a second line with one UTR in the same answer, is a
 * conflict, not a settlement (the ninth session's review: one UTR settled many lines). Its own
 * table, written by the settlement, so that settling stays a HOT update of the line (drizzle/0037).
 */
export const bankUtrs = pgTable('bank_utrs', {
  utr: text('utr').primaryKey(),
  lineId: bigint('line_id', { mode: 'number' }).notNull(),
});
