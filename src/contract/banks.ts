import { z } from 'zod';
import { awaitingApprovalResponse } from './approvals.ts';
import { messageResponse, paging } from './common.ts';
import { endpoints } from './endpoint.ts';

/** Spec §3 Bank account. */
export const bankAccount = z.object({
  _id: z.string(),
  bankId: z.number(),
  userId: z.number(),
  accountHolderName: z.string(),
  accountNumber: z.string(),
  ifsc: z.string(),
  bank: z.string(),
  branch: z.string().nullable(),
  isPrimary: z.boolean(),
  createdAt: z.string(),
});
export type BankAccount = z.infer<typeof bankAccount>;

/** decisions.md: IFSC is four letters, a zero, six letters or digits. */
const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
/** decisions.md: account numbers are 9 to 18 digits. */
const ACCOUNT_NUMBER_PATTERN = /^[0-9]{9,18}$/;

const accountFields = {
  accountHolderName: z.string().trim().min(1, 'Account holder name is required').max(100, 'Account holder name must be at most 100 characters'),
  accountNumber: z.string().trim().regex(ACCOUNT_NUMBER_PATTERN, 'Account number must be 9 to 18 digits'),
  ifsc: z.string().trim().toUpperCase().regex(IFSC_PATTERN, 'IFSC code must look like SBIN0001234 (4 letters, 0, then 6 letters or digits)'),
  bank: z.string().trim().min(1, 'Bank name is required').max(100, 'Bank name must be at most 100 characters'),
  branch: z.preprocess((v) => (v === '' ? null : v), z.string().trim().max(100, 'Branch must be at most 100 characters').nullable().optional()),
  isPrimary: z.boolean().optional(),
};

/**
 * An account number as the panel and the audit log show it: all but the last four digits hidden
 * ('XXXXXX1234'). Only the edit form, for an account the operator may change, holds it whole.
 */
export const maskAccountNumber = (accountNumber: string): string =>
  accountNumber.length <= 4 ? accountNumber : `${'X'.repeat(accountNumber.length - 4)}${accountNumber.slice(-4)}`;

export const createBankBody = z.object({
  userId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  ...accountFields,
});

export const updateBankBody = z.object(accountFields).partial();

/**
 * A change of where a member's money goes, filed for a second operator (issue 22): a new account
 * number or IFSC, or another account made primary (gathers pay the primary). The account, the
 * fields sent, and the number and IFSC it had when filed; for a new primary, the primary it
 * replaces (null: none). The approval applies it only if these are still the same. The Approvals
 * screen shows it from `details`.
 */
export const bankChangeRequest = z.object({
  bankId: z.number().int().positive(),
  changes: updateBankBody,
  before: z.object({ accountHolderName: z.string(), accountNumber: z.string(), ifsc: z.string(), bank: z.string() }),
  primaryBefore: z.object({ bankId: z.number(), accountNumber: z.string(), ifsc: z.string(), bank: z.string() }).nullable().optional(),
});
export type BankChangeRequest = z.infer<typeof bankChangeRequest>;

export const bankIdParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const bankUserParam = z.object({ userId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const banksQuery = paging.extend({ userId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() });

export const banksResponse = z.object({ success: z.literal(true), data: z.array(bankAccount) });
export const banksPage = banksResponse.extend({ total: z.number(), page: z.number(), limit: z.number() });
export const bankChangedResponse = z.object({ success: z.literal(true), message: z.string(), data: bankAccount });

export const banksApi = endpoints('banks', {
  ofUser: { method: 'GET', path: '/banks/getBanksByUserId/:userId', access: 'banks_view', params: bankUserParam, responses: { 200: banksResponse } },
  list: { method: 'GET', path: '/banks/getAllBanks', access: 'banks_view', query: banksQuery, responses: { 200: banksPage } },
  create: {
    method: 'POST', path: '/banks/createBankAccount', access: 'banks_manage', body: createBankBody,
    // 202: added, and its becoming primary over the member's current primary awaits a second operator.
    responses: { 201: bankChangedResponse, 202: awaitingApprovalResponse },
  },
  update: {
    method: 'PUT', path: '/banks/updateBank/:id', access: 'banks_manage', params: bankIdParam, body: updateBankBody,
    /** 202: a new account number or IFSC, or another primary, waits for a second operator on the Approvals screen. */
    responses: { 200: bankChangedResponse, 202: awaitingApprovalResponse },
  },
  remove: { method: 'DELETE', path: '/banks/deleteBank/:id', access: 'banks_manage', params: bankIdParam, responses: { 200: messageResponse } },
  /** Every live member's bank accounts as CSV (account numbers masked, as on screen), streamed. */
  csv: { method: 'GET', path: '/banks/bankAccounts.csv', access: 'banks_view', file: 'csv', responses: {} },
});
