import { z } from 'zod';
import { endpoints } from './endpoint.ts';

export const rootResponse = z.object({ success: z.literal(true), message: z.string(), version: z.string() });
export const healthResponse = z.object({
  success: z.boolean(),
  status: z.enum(['ok', 'unavailable']),
  database: z.string(),
});
export type Health = z.infer<typeof healthResponse>;

export const systemApi = endpoints('system', {
  /** The panel's API connection test calls it. */
  root: { method: 'GET', path: '/', access: 'public', responses: { 200: rootResponse } },
  /** For load balancers: 200 only when the database answers, else 503 with the same shape. */
  health: { method: 'GET', path: '/health', access: 'public', responses: { 200: healthResponse }, errors: { 503: healthResponse } },
});
