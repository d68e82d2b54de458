import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoToWireDate } from '../../../contract/common';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import PlansPage from './plans-page';
import { istDay } from './plans.api';

const version = (over: Record<string, unknown> = {}) => ({
  versionId: 1, planId: 1, effectiveFrom: '01-04-2026', name: 'Gold Plan', price: 1000, dailyMode: 'percent', dailyValue: 1.5,
  dailyAmount: 15, durationDays: 200, cap: 2000, active: true, createdBy: 1, createdByName: 'Asha Admin', createdAt: '2026-04-01T06:30:00.000Z',
  ...over,
});

const PLANS = [
  {
    planId: 1,
    current: version(),
    scheduled: version({ versionId: 3, effectiveFrom: '01-06-2026', price: 2000, dailyAmount: 30, cap: 4000 }),
  },
  { planId: 2, current: version({ versionId: 2, planId: 2, name: 'Fixed Twenty', dailyMode: 'fixed', dailyValue: 20, dailyAmount: 20, active: false }), scheduled: null },
];

function serve(extra: (path: string, init: RequestInit) => Response | null = () => null) {
  return mockFetch((path, init) => {
    const answer = extra(path, init);
    if (answer) return answer;
    if (path === '/income/plans/1/versions') return jsonResponse(200, { success: true, data: [PLANS[0].scheduled, PLANS[0].current] });
    if (path === '/income/plans') return jsonResponse(200, { success: true, data: PLANS });
    return jsonResponse(404, { success: false, message: 'Not found' });
  });
}

describe('PlansPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the plans with price, daily payout, duration, cap, status, the day in force and the scheduled change', async () => {
    signIn(['membership_view']);
    serve();
    renderPage(<PlansPage />);
    await screen.findByText('Gold Plan');
    const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
    const gold = within(row('Gold Plan'));
    expect(gold.getByText('₹1,000.00')).toBeTruthy();
    expect(gold.getByText('1.5 % (₹15.00)')).toBeTruthy();
    expect(gold.getByText('200 days')).toBeTruthy();
    expect(gold.getByText('₹2,000.00')).toBeTruthy();
    expect(gold.getByText('Active')).toBeTruthy();
    expect(gold.getByText('from 01-04-2026')).toBeTruthy();
    expect(gold.getByText('From 01-06-2026: ₹2,000.00, 1.5 % (₹30.00), 200 days, cap ₹4,000.00')).toBeTruthy();
    const fixed = within(row('Fixed Twenty'));
    expect(fixed.getByText('₹20.00')).toBeTruthy();
    expect(fixed.getByText('Inactive')).toBeTruthy();
    expect(fixed.getByText('None')).toBeTruthy();
    // Reading only: no Add Plan, no Change.
    expect(screen.queryByRole('button', { name: 'Add Plan' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change Gold Plan' })).toBeNull();
  });

  it('shows a plan\u2019s versions, newest first, in a dialog', async () => {
    signIn(['membership_view']);
    serve();
    renderPage(<PlansPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Versions of Gold Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Versions of Gold Plan' });
    await within(dialog).findByText('01-06-2026');
    const days = within(dialog).getAllByRole('row').slice(1).map((r) => r.querySelectorAll('td')[0].textContent);
    expect(days).toEqual(['01-06-2026', '01-04-2026']);
    expect(within(dialog).getAllByText('Asha Admin')).toHaveLength(2);
  });

  it('adds a plan: an invalid amount shows its message under the field, stays as typed and sends nothing; then saves from today', async () => {
    signIn(['membership_view', 'income_settings']);
    const posted: unknown[] = [];
    serve((path, init) => {
      if (path === '/income/plans' && init.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        return jsonResponse(201, { success: true, message: 'Plan Silver created: in force from today', data: { planId: 9, current: version({ name: 'Silver' }), scheduled: null } });
      }
      return null;
    });
    renderPage(<PlansPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Plan' });
    expect((within(dialog).getByLabelText(/Effective from/) as HTMLInputElement).value).toBe(istDay(0));
    fireEvent.change(within(dialog).getByLabelText(/Plan Name/), { target: { value: 'Silver' } });
    fireEvent.change(within(dialog).getByLabelText(/Price/), { target: { value: '1e5' } });
    fireEvent.change(within(dialog).getByLabelText(/Daily payout \(% of the price\)/), { target: { value: '1.25' } });
    fireEvent.change(within(dialog).getByLabelText(/Duration/), { target: { value: '100' } });
    fireEvent.change(within(dialog).getByLabelText(/Total payout cap/), { target: { value: '1000.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Amount must be a number')).toBeTruthy();
    expect((within(dialog).getByLabelText(/Price/) as HTMLInputElement).value).toBe('1e5');
    expect(posted).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText(/Price/), { target: { value: '999.99' } });
    // The day it earns, as the server computes it: 99,999 paise × 125 bp / 10,000, rounded down.
    expect(within(dialog).getByText('₹12.49 a day')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Plan Silver created: in force from today')).toBeTruthy();
    expect(posted).toEqual([{
      name: 'Silver', price: 999.99, dailyMode: 'percent', dailyValue: 1.25, durationDays: 100, cap: 1000.5, active: true,
      effectiveFrom: isoToWireDate(istDay(0)),
    }]);
  });

  it('changes a plan from tomorrow by default, prefilled with its latest terms, and shows a refusal in the form', async () => {
    signIn(['membership_view', 'income_settings']);
    const put: unknown[] = [];
    serve((path, init) => {
      if (path === '/income/plans/2' && init.method === 'PUT') {
        put.push(JSON.parse(String(init.body)));
        return jsonResponse(409, { success: false, message: 'A plan named Gold Plan already exists', errors: [{ path: 'body.name', field: 'name', message: 'A plan named Gold Plan already exists' }] });
      }
      return null;
    });
    renderPage(<PlansPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Change Fixed Twenty' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Fixed Twenty' });
    expect((within(dialog).getByLabelText(/Effective from/) as HTMLInputElement).value).toBe(istDay(1));
    expect((within(dialog).getByLabelText(/Daily payout \(₹ per day\)/) as HTMLInputElement).value).toBe('20');
    fireEvent.change(within(dialog).getByLabelText(/Plan Name/), { target: { value: 'Gold Plan' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Change' }));
    expect(await within(dialog).findByText('A plan named Gold Plan already exists')).toBeTruthy();
    expect(put).toEqual([{
      name: 'Gold Plan', price: 1000, dailyMode: 'fixed', dailyValue: 20, durationDays: 200, cap: 2000, active: false,
      effectiveFrom: isoToWireDate(istDay(1)),
    }]);
  });

  it('issue 24: refuses a cap below the price and a name over 80 characters at their fields, keeping what was typed, sending nothing', async () => {
    signIn(['membership_view', 'income_settings']);
    const put: unknown[] = [];
    serve((path, init) => {
      if (path === '/income/plans/1' && init.method === 'PUT') {
        put.push(JSON.parse(String(init.body)));
        return jsonResponse(202, { success: true, message: 'Filed', data: { approvalId: 1 } });
      }
      return null;
    });
    renderPage(<PlansPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Change Gold Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Gold Plan' });
    const long = 'G'.repeat(300);
    fireEvent.change(within(dialog).getByLabelText(/Plan Name/), { target: { value: long } });
    fireEvent.change(within(dialog).getByLabelText(/Total payout cap/), { target: { value: '1999.99' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Change' }));
    expect(await within(dialog).findByText('Plan name must be at most 80 characters')).toBeTruthy();
    expect((within(dialog).getByLabelText(/Plan Name/) as HTMLInputElement).value).toBe(long);
    fireEvent.change(within(dialog).getByLabelText(/Plan Name/), { target: { value: 'Gold Plan' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Change' }));
    // The scheduled version's price is ₹2,000: a cap of ₹1,999.99 is below it.
    expect(await within(dialog).findByText('Cap must be at least the price')).toBeTruthy();
    expect((within(dialog).getByLabelText(/Total payout cap/) as HTMLInputElement).value).toBe('1999.99');
    expect(put).toEqual([]);
  });

  it('issue 24: sorts by name and by price from the headers; the order comes from the address', async () => {
    signIn(['membership_view']);
    const cheap = { planId: 3, current: version({ versionId: 4, planId: 3, name: 'Bronze Plan', price: 500, cap: 1000 }), scheduled: null };
    serve((path) => (path === '/income/plans' ? jsonResponse(200, { success: true, data: [...PLANS, cheap] }) : null));
    renderPage(<PlansPage />, { url: '/?sort=-name' });
    await screen.findByText('Gold Plan');
    const names = () => screen.getAllByRole('row').slice(1).map((r) => r.querySelectorAll('td')[0].textContent);
    expect(names()).toEqual(['Gold Plan', 'Fixed Twenty', 'Bronze Plan']);
    const name = screen.getByRole('columnheader', { name: 'Name' });
    expect(name.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(within(name).getByRole('button'));
    expect(names()).toEqual(['Bronze Plan', 'Fixed Twenty', 'Gold Plan']);
    const price = screen.getByRole('columnheader', { name: 'Price' });
    fireEvent.click(within(price).getByRole('button'));
    expect(price.getAttribute('aria-sort')).toBe('ascending');
    expect(names()[0]).toBe('Bronze Plan'); // ₹500 before the two of ₹1,000
    fireEvent.click(within(price).getByRole('button'));
    expect(price.getAttribute('aria-sort')).toBe('descending');
    expect(names()[2]).toBe('Bronze Plan');
  });
});
