import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import { MemberPanCard } from './tax.api';
import MonthlyStatementPage from './monthly-statement-page';
import TdsReportPage from './tds-report-page';

// jsdom has no scrolling; Mantine's combobox scrolls the selected option into view.
Element.prototype.scrollIntoView = () => {};

const TDS = {
  success: true,
  data: [
    { userId: 100002, name: 'Asha Rao', pan: null, gross: 100, tds: 20, days: 1, firstDate: '26-11-2026', lastDate: '26-11-2026', sections: ['206AA'] },
    { userId: 100003, name: 'Kiran Das', pan: 'KLMNO****P', gross: 200, tds: 10, days: 2, firstDate: '25-11-2026', lastDate: '26-11-2026', sections: ['194H'] },
  ],
  total: 2,
  page: 1,
  limit: 25,
  summary: { label: 'Q3 (Oct–Dec) FY 2026-27', from: '01-10-2026', to: '31-12-2026', members: 2, gross: 300, tds: 30, tdsWithoutPan: 20 },
};

describe('tax screens (issue 25)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('TDS Report: asks for the quarter in the address, shows the totals and each member with the PAN masked and the section', async () => {
    signIn(['reports_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, TDS));
    renderPage(<TdsReportPage />, { path: '/reports/tds', url: '/reports/tds?year=2026&quarter=3' });
    expect(screen.getByRole('heading', { name: 'TDS Report' })).toBeTruthy();
    await screen.findByText('Kiran Das');
    expect(String(fetchMock.mock.calls[0][0])).toContain('/api/tax/tds?year=2026&quarter=3&page=1&limit=25');
    expect(within(screen.getByRole('region', { name: 'TDS Deducted' })).getByText('₹30.00')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Of Which Without PAN (206AA)' })).getByText('₹20.00')).toBeTruthy();
    expect(screen.getByText('KLMNO****P')).toBeTruthy();
    expect(screen.getByText('No PAN')).toBeTruthy();
    expect(screen.getByText('206AA')).toBeTruthy();
    expect(screen.getByText('25-11-2026 – 26-11-2026')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
  });

  it('Monthly Statement: the month\u2019s income and expenses with the net', async () => {
    signIn(['reports_view']);
    mockFetch(() => jsonResponse(200, {
      success: true,
      data: {
        month: '2026-11', label: 'November 2026', from: '01-11-2026', to: '30-11-2026', income: 4050, expenses: 1200, net: 2850,
        rows: [
          { code: 'membership_revenue', name: 'Membership revenue', type: 'income', amount: 4000, legs: 4 },
          { code: 'daily_payout_expense', name: 'Daily payout', type: 'expense', amount: 1200, legs: 4 },
        ],
      },
    }));
    renderPage(<MonthlyStatementPage />, { path: '/reports/monthly-statement', url: '/reports/monthly-statement?month=2026-11' });
    await screen.findByText('Membership revenue');
    expect(within(screen.getByRole('region', { name: 'Net' })).getByText('₹2,850.00')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Expenses' })).getByText('₹1,200.00')).toBeTruthy();
  });

  it('PAN card: masked, and a PAN filed for approval after the form checks its format', async () => {
    signIn(['users_view', 'users_edit']);
    let filed = false;
    const fetchMock = mockFetch((path, init) => {
      if (init.method === 'PUT') {
        filed = true;
        return jsonResponse(202, { success: true, message: 'The PAN awaits approval by a second operator', data: { approvalId: 7, status: 'pending' } });
      }
      return jsonResponse(200, { success: true, data: { userId: 100002, pan: null, pending: filed ? { approvalId: 7, pan: 'ABCDE****F' } : null } });
    });
    const onFiled = vi.fn();
    renderPage(<MemberPanCard userId={100002} onFiled={onFiled} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Set PAN' }));
    const input = await screen.findByRole('textbox', { name: 'PAN' });
    fireEvent.change(input, { target: { value: 'ABCD1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'File for approval' }));
    expect(await screen.findByText('PAN must be 5 letters, 4 digits and a letter, like ABCDE1234F')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
    fireEvent.change(input, { target: { value: 'abcde1234f' } });
    fireEvent.click(screen.getByRole('button', { name: 'File for approval' }));
    await waitFor(() => expect(onFiled).toHaveBeenCalledWith('The PAN awaits approval by a second operator'));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(String(put[0])).toContain('/api/tax/pan/100002');
    expect(JSON.parse(String(put[1]!.body))).toEqual({ pan: 'ABCDE1234F' });
    expect(await screen.findByText('ABCDE****F awaits approval (request 7)')).toBeTruthy();
  });
});
