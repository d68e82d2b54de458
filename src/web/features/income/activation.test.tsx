import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import { PLANS } from './fake-plans';
import { ActivationForm } from './activation-form';
import { MembershipCard } from './membership-card';

const DETAIL = {
  membershipId: 7, userId: 101, planId: 1, planName: 'Gold Plan', planVersionId: 1, price: 1000, dailyAmount: 15, durationDays: 200,
  cap: 2000, earned: 450, daysEarned: 30, status: 'active', startsOn: '02-04-2026', paidVia: 'outside', paymentMethod: 'UPI',
  paymentReference: 'UTR 77', activatedAt: '2026-04-01T06:30:00.000Z',
};

async function pickPlan(dialog: HTMLElement, name: RegExp) {
  fireEvent.click(within(dialog).getAllByLabelText(/^Plan/)[0]);
  fireEvent.click((await screen.findAllByRole('option', { name, hidden: true })).at(-1)!);
}

describe('ActivationForm opened from a member', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the preset member from the wallet, keeps the form open with the server\u2019s refusal, and reports a success', async () => {
    signIn(['membership_view', 'membership_manage']);
    const keys: (string | null)[] = [];
    let refuse = true;
    mockFetch((path, init) => {
      if (path === '/income/plans') return jsonResponse(200, PLANS);
      if (path === '/income/memberships') {
        keys.push(new Headers(init.headers).get('Idempotency-Key'));
        expect(JSON.parse(String(init.body))).toEqual({ userId: 101, planId: 1, paidVia: 'wallet' });
        return refuse
          ? jsonResponse(400, { success: false, message: 'Insufficient wallet balance: the member has 10.00 and 1000.00 was requested' })
          : jsonResponse(201, { success: true, message: 'Membership Gold Plan activated for member 101; it earns from 02-04-2026', data: { membership: DETAIL, levelIncome: [], balance: 0 } });
      }
      return jsonResponse(404, { success: false, message: 'Not found' });
    });
    const onDone = vi.fn();
    renderPage(<ActivationForm userId={101} onClose={() => {}} onDone={onDone} />);
    const dialog = await screen.findByRole('dialog', { name: 'Activate Membership' });
    await pickPlan(dialog, /Gold Plan/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Activate' }));
    expect(await within(dialog).findByText('Insufficient wallet balance: the member has 10.00 and 1000.00 was requested')).toBeTruthy();
    refuse = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith({ message: 'Membership Gold Plan activated for member 101; it earns from 02-04-2026', awaitingApproval: false }));
    // A refusal is stored under its key: the retry after it is a new request with a new key.
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('MembershipCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the plan, the terms, earned against the cap, the days, the status and how it was paid', async () => {
    signIn(['membership_view']);
    mockFetch((path) => (path === '/income/memberships/101' ? jsonResponse(200, { success: true, data: DETAIL }) : jsonResponse(404, { success: false, message: 'x' })));
    renderPage(<MembershipCard userId={101} />);
    const card = (await screen.findByText('Gold Plan')).closest('section')!;
    const c = within(card);
    expect(c.getByText('₹1,000.00')).toBeTruthy();
    expect(c.getByText('₹15.00')).toBeTruthy();
    expect(c.getByText('30 / 200')).toBeTruthy();
    expect(c.getByText('02-04-2026')).toBeTruthy();
    expect(c.getByText('Outside: UPI (ref. UTR 77)')).toBeTruthy();
    expect(c.getByText('₹450.00 / ₹2,000.00')).toBeTruthy();
    expect(c.getByText('Active')).toBeTruthy();
    const bar = c.getByRole('progressbar', { name: 'Earned ₹450.00 of the ₹2,000.00 cap' });
    expect(bar.getAttribute('aria-valuenow')).toBe('22.5');
  });

  it('says when there is no membership and offers the action given', async () => {
    signIn(['membership_view']);
    mockFetch(() => jsonResponse(200, { success: true, data: null }));
    renderPage(<MembershipCard userId={104} action={<button type="button">Activate Membership</button>} />);
    expect(await screen.findByText('No membership yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Activate Membership' })).toBeTruthy();
  });
});
