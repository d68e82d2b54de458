import { describe, expect, it } from 'vitest';
import { DEFAULT_INCOME_SETTINGS } from '../../../contract/income.ts';
import { csvExport } from '../../test/harness.ts';
import { incomeSuite } from './income-test-kit.ts';

// Issue 24: Download CSV on Plans and on Income Settings' saved versions (membership_view, as the lists).
const { ctx, call, viaApproval } = incomeSuite({ signIn: true });

/** The CSV's lines without the BOM. */
const csv = (url: string, headers?: Record<string, string>) => csvExport(call, url, headers);

describe('plans and settings versions as CSV', () => {
  it('plans: each plan with the terms it shows and its scheduled change; refused without membership_view', async () => {
    const gold = { name: 'Export Gold', price: 1000, dailyMode: 'percent', dailyValue: 1.5, durationDays: 200, cap: 2000, active: true };
    const created = await viaApproval('POST', '/api/income/plans', gold);
    expect(created.statusCode, created.body).toBe(201);
    const { planId } = created.json().data;
    const changed = await viaApproval('PUT', `/api/income/plans/${planId}`, { ...gold, price: 1200, cap: 2400 });
    expect(changed.statusCode, changed.body).toBe(200);
    const out = await csv('/api/income/plans.csv', ctx.viewer);
    expect(out.res.headers['content-disposition']).toBe('attachment; filename="plans.csv"');
    expect(out.header).toBe('Plan ID,Name,Price (INR),Daily payout,Daily payout (INR),Duration (days),Cap (INR),Status,In force from,'
      + 'Scheduled change from,Scheduled price (INR),Scheduled daily payout (INR),Scheduled duration (days),Scheduled cap (INR)');
    const row = out.rows.find((r) => r.startsWith(`${planId},`))!.split(',');
    const { current, scheduled } = changed.json().data;
    expect(row).toEqual([String(planId), 'Export Gold', '1000.00', '1.5 %', '15.00', '200', '2000.00', 'Active', current.effectiveFrom,
      scheduled.effectiveFrom, '1200.00', '18.00', '200', '2400.00']);
    expect((await call('GET', '/api/income/plans.csv', undefined, ctx.noPermission)).statusCode).toBe(403);
  });

  it('settings versions: newest first, each with its state and its settings, saved at in India time; refused without membership_view', async () => {
    const saved = await viaApproval('PUT', '/api/income/settings', { settings: { ...DEFAULT_INCOME_SETTINGS, tdsPercent: 7 } });
    expect(saved.statusCode, saved.body).toBe(200);
    const out = await csv('/api/income/settings/versions.csv', ctx.viewer);
    expect(out.res.headers['content-disposition']).toBe('attachment; filename="income-settings-versions.csv"');
    expect(out.header).toBe('Version ID,Effective from,Status,Level income (%),Compression,TDS (%),TDS without PAN (%),Admin charge (%),Pay to,'
      + 'Payout time (IST),Pay on weekends,Royalty pool (%),Royalty period,Referral bonus (INR),Monthly reward,Monthly reward target (INR),'
      + 'Monthly reward amount (INR),Saved by,Saved at');
    const history = (await call('GET', '/api/income/settings')).json().data.history as { versionId: number; effectiveFrom: string }[];
    expect(out.rows.map((r) => Number(r.split(',')[0]))).toEqual(history.map((v) => v.versionId));
    const first = out.rows[0].split(',');
    expect(first.slice(1, 9)).toEqual([history[0].effectiveFrom, 'In force', '10 5 3 2 1 1 0.5 0.5 0.5 0.5', 'Off', '7', '20', '5', 'wallet']);
    expect(first.at(-1)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+05:30$/);
    expect((await call('GET', '/api/income/settings/versions.csv', undefined, ctx.noPermission)).statusCode).toBe(403);
  });
});
