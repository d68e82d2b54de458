import { z } from 'zod';
import { paging, wireDate } from './common.ts';

/** Spec §3 Member view, with the membership's amount and date. */
export const member = z.object({
  _id: z.string(),
  id: z.number(),
  userId: z.number(),
  fullName: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  status: z.boolean(),
  /** The membership fee paid, rupees. */
  amount: z.number(),
  /** The member's wallet balance now, rupees. */
  currentAmount: z.number(),
  /** When the membership was taken (ISO timestamp). */
  dateTime: z.string(),
});
export type Member = z.infer<typeof member>;

/** fromDate/toDate are dd-mm-yyyy, both inclusive days in India time; a reversed range is refused. */
export const membershipQuery = paging
  .extend({ fromDate: wireDate.optional(), toDate: wireDate.optional() })
  .refine((r) => !r.fromDate || !r.toDate || r.fromDate <= r.toDate, {
    message: 'fromDate must not be after toDate',
    path: ['fromDate'],
  });

export const membershipResponse = z.object({
  success: z.literal(true),
  data: z.array(member),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type MembershipPage = z.infer<typeof membershipResponse>;

/** GET /users/walletHistory?transactionType=dailyPayout&userId= (served by the wallet module). */
export const historyEntry = z.object({
  id: z.union([z.number(), z.string()]),
  userId: z.number().optional(),
  amount: z.number(),
  type: z.enum(['credit', 'debit']).optional(),
  transactionType: z.string().optional(),
  description: z.string().nullable().optional(),
  date: z.string().optional(),
  createdAt: z.string().optional(),
  dateTime: z.string().optional(),
  transactionId: z.union([z.number(), z.string()]).nullable().optional(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

export const amountHistory = z.object({
  user: z.object({ userId: z.number().optional(), fullName: z.string().optional() }).passthrough().nullable().optional(),
  currentAmount: z.number(),
  history: z.array(historyEntry).optional(),
  transactions: z.array(historyEntry).optional(),
});
export type AmountHistory = z.infer<typeof amountHistory>;
