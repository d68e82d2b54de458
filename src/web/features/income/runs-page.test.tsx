import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import RunsPage from './runs-page';
import { pollWhileActive } from './runs.api';

Element.prototype.scrollIntoView = () => {};

const totals = { total: 100_000, done: 12_345, paid: 12_000, failed: 345, gross: 123456.78, deductions: 12345.67, tds: 8230.45, adminCharge: 4115.22, net: 111111.11, failedAmount: 3450 };
const baseRun = {
  runId: 5, kind: 'daily_payout', periodStart: '03-11-2026', periodEnd: '03-11-2026', status: 'completed',
  totals: { ...totals, done: 100_000 }, startedBy: 100001, startedByName: 'Asha Admin', startedAt: '2026-11-03T12:30:00Z',
  finishedAt: '2026-11-03T12:31:00Z', reversedBy: null, reversedByName: null, reversedAt: null, shortfall: 0, error: null, batchId: null,
};
const running = { ...baseRun, runId: 6, status: 'running', totals, startedBy: null, startedByName: null, finishedAt: null };
const royalty = { ...baseRun, runId: 4, kind: 'royalty', periodStart: '01-10-2026', periodEnd: '31-10-2026', batchId: 9 };
const PREVIEW = {
  success: true,
  data: {
    runId: 5, members: 9, lines: 27, gross: 90, deductions: 9, net: 81, takenBack: 81, shortfall: 0, shortfallMembers: 0,
    payNowLines: 3, payNowMembers: 1, unpaidFailures: 2, bankUnsent: 0, bankSent: 0,
  },
};
const pageOf = (rows: unknown[]) => ({ success: true, data: rows, total: rows.length, page: 1, limit: 25 });
const detailOf = (run: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  success: true,
  data: {
    ...run,
    settingsVersionId: 2,
    settings: { levelIncome: [10, 5, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5], compression: true, tdsPercent: 5, adminChargePercent: 2.5, payTo: 'bank', royaltyPoolPercent: 2, royaltyPeriod: 'monthly' },
    state: { revenuePaise: 61_728_350, poolBp: 200, poolPaise: 1_234_567, weights: { 1: 1, 3: 5 }, weightSum: 12, eligible: 4, sharedPaise: 1_234_560, leftoverPaise: 7 },
    shortfalls: [],
    reversal: null,
    ...extra,
  },
});

const listCalls = (fetchMock: ReturnType<typeof mockFetch>) => fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/income/runs?'));
/** The runs table (the filters' hidden options say 'Running', 'Royalty'… too). */
const table = () => within(screen.getByRole('table', { name: 'Income runs' }));
const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

describe('RunsPage', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists runs with kind, period, status, a named progress bar, counts and rupee totals', async () => {
    signIn(['payouts_view', 'income_runs']);
    mockFetch(() => jsonResponse(200, pageOf([baseRun, royalty])));
    renderPage(<RunsPage />);
    expect(screen.getByRole('heading', { name: 'Income Runs' })).toBeTruthy();
    await screen.findByRole('button', { name: 'Details of run 4' });
    expect(table().getByText('Royalty')).toBeTruthy();
    for (const header of ['Kind', 'Period', 'Status', 'Progress', 'Paid', 'Failed', 'Gross ₹', 'Deductions ₹', 'Net ₹', 'Started by', 'Started at']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(`^${header}`) })).toBeTruthy();
    }
    const [royaltyRow] = screen.getAllByRole('row').filter((r) => within(r).queryByText('#4'));
    expect(within(royaltyRow).getByText('01-10-2026 – 31-10-2026')).toBeTruthy();
    expect(table().getByText('03-11-2026')).toBeTruthy();
    expect(table().getAllByText('Completed')).toHaveLength(2);
    const bar = screen.getByRole('progressbar', { name: 'Progress of run 5' });
    expect(bar.getAttribute('aria-valuenow')).toBe('100000');
    expect(bar.getAttribute('aria-valuemax')).toBe('100000');
    expect(bar.getAttribute('aria-valuetext')).toBe('1,00,000 / 1,00,000');
    expect(screen.getAllByText('₹1,23,456.78')).toHaveLength(2);
    expect(screen.getAllByText('₹12,345.67')).toHaveLength(2);
    expect(screen.getAllByText('₹1,11,111.11')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'New Run' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reverse run 5' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Details of run 4' })).toBeTruthy();
  });

  it('offers no New Run nor Reverse without income_runs, and no Reverse on a run that is not completed', async () => {
    signIn(['payouts_view']);
    mockFetch(() => jsonResponse(200, pageOf([baseRun])));
    renderPage(<RunsPage />);
    expect(await screen.findByRole('button', { name: 'Details of run 5' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New Run' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reverse run 5' })).toBeNull();
  });

  it('shows a running run with its progress and "Schedule", and polls until it completes', async () => {
    signIn(['payouts_view', 'income_runs']);
    let calls = 0;
    const fetchMock = mockFetch(() => jsonResponse(200, pageOf([(calls += 1) < 2 ? running : { ...running, status: 'completed', totals: { ...totals, done: 100_000 } }])));
    renderPage(<RunsPage />);
    await screen.findByRole('button', { name: 'Details of run 6' });
    expect(table().getByText('Running')).toBeTruthy();
    expect(table().getByText('Schedule')).toBeTruthy();
    expect(table().getByText('12,345 / 1,00,000')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reverse run 6' })).toBeNull();
    await vi.waitFor(() => expect(table().getByText('Completed')).toBeTruthy(), { timeout: 8000 });
    expect(listCalls(fetchMock).length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole('progressbar', { name: 'Progress of run 6' }).getAttribute('aria-valuenow')).toBe('100000');
  });

  it('polls every 2 s only while a run on the page is running or reversing', () => {
    const page = (...statuses: string[]) => ({ data: statuses.map((status) => ({ status })) }) as Parameters<typeof pollWhileActive>[0];
    expect(pollWhileActive(page('completed', 'running'))).toBe(2000);
    expect(pollWhileActive(page('reversing'))).toBe(2000);
    expect(pollWhileActive(page('completed', 'failed', 'reversed'))).toBe(false);
    expect(pollWhileActive(undefined)).toBe(false);
  });

  it('keeps kind, status and order in the address and sends them', async () => {
    signIn(['payouts_view']);
    const fetchMock = mockFetch(() => jsonResponse(200, pageOf([royalty])));
    renderPage(<RunsPage />, { url: '/?kind=royalty&status=completed' });
    await screen.findByRole('button', { name: 'Details of run 4' });
    expect(listCalls(fetchMock)[0]).toContain('kind=royalty');
    expect(listCalls(fetchMock)[0]).toContain('status=completed');
    expect(listCalls(fetchMock)[0]).toContain('sort=-startedAt');
    fireEvent.click(screen.getByRole('button', { name: /^Period/ }));
    await vi.waitFor(() => expect(listCalls(fetchMock).at(-1)).toContain('sort=periodStart'));
    expect(listCalls(fetchMock).at(-1)).toContain('kind=royalty');
    expect(screen.getByRole('columnheader', { name: /^Period/ }).getAttribute('aria-sort')).toBe('ascending');
  });

  it('says "No runs yet" on an empty list, and the server message when loading fails', async () => {
    signIn(['payouts_view']);
    mockFetch(() => jsonResponse(200, pageOf([])));
    const first = renderPage(<RunsPage />);
    expect(await screen.findByText('No runs yet')).toBeTruthy();
    first.unmount();
    mockFetch(() => jsonResponse(500, { success: false, message: 'Database down' }));
    renderPage(<RunsPage />);
    expect(await screen.findByText('Failed to load runs: Database down')).toBeTruthy();
  });

  it('previews a period (saying when it already has a run), then starts it and shows the new run', async () => {
    signIn(['payouts_view', 'income_runs']);
    let started = false;
    const posts: { path: string; body: Record<string, unknown> }[] = [];
    const fetchMock = mockFetch((path, init) => {
      if (path === '/income/runs/preview') {
        posts.push({ path, body: bodyOf(init) });
        return jsonResponse(200, { success: true, data: { kind: 'royalty', periodStart: '01-11-2026', periodEnd: '30-11-2026', totals: { ...totals, done: 0 }, existingRunId: posts.length > 1 ? 4 : null } });
      }
      if (path === '/income/runs' && init.method === 'POST') {
        posts.push({ path, body: bodyOf(init) });
        started = true;
        return jsonResponse(201, { success: true, message: 'Run #7 started', data: { ...running, runId: 7, kind: 'royalty' } });
      }
      return jsonResponse(200, pageOf(started ? [{ ...running, runId: 7, kind: 'royalty' }, baseRun] : [baseRun]));
    });
    renderPage(<RunsPage />, { url: '/?status=failed' });
    fireEvent.click(await screen.findByRole('button', { name: 'New Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Run' });
    fireEvent.click(within(dialog).getAllByLabelText(/^Kind/)[0]);
    fireEvent.click((await screen.findAllByRole('option', { name: 'Royalty', hidden: true })).at(-1)!);
    fireEvent.change(within(dialog).getByLabelText(/^Date/), { target: { value: '2026-11-15' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    const preview = await within(dialog).findByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('Royalty for 01-11-2026 – 30-11-2026')).toBeTruthy();
    expect(within(preview).getByText('12,000')).toBeTruthy();
    expect(within(preview).getByText('₹1,11,111.11')).toBeTruthy();
    expect(within(preview).queryByText(/already has run/)).toBeNull();
    // A preview describes the day it was asked for: another day puts it away.
    fireEvent.change(within(dialog).getByLabelText(/^Date/), { target: { value: '2026-11-16' } });
    await vi.waitFor(() => expect(within(dialog).queryByRole('region', { name: 'Preview' })).toBeNull());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByText('This period already has run #4')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start Run' }));
    expect(await screen.findByText('Run #7 started')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'New Run' })).toBeNull();
    expect(posts.map((p) => p.body)).toEqual([
      { kind: 'royalty', date: '15-11-2026' },
      { kind: 'royalty', date: '16-11-2026' },
      { kind: 'royalty', date: '16-11-2026' },
    ]);
    expect(await screen.findByRole('progressbar', { name: 'Progress of run 7' })).toBeTruthy();
    // The failed-only filter would hide the new run: the list goes back to all runs, newest first.
    expect(listCalls(fetchMock).at(-1)).not.toContain('status=');
  });

  it('sends nothing without a date, and says so', async () => {
    signIn(['payouts_view', 'income_runs']);
    const fetchMock = mockFetch(() => jsonResponse(200, pageOf([])));
    renderPage(<RunsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'New Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Run' });
    fireEvent.change(within(dialog).getByLabelText(/^Date/), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByText('Please choose a day of the period')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start Run' }));
    expect(await within(dialog).findByText('Please choose a day of the period')).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });

  it('says "This period has already run" when start answers the existing run, and shows it', async () => {
    signIn(['payouts_view', 'income_runs']);
    mockFetch((path, init) => {
      if (path === '/income/runs' && init.method === 'POST') return jsonResponse(200, { success: true, message: 'This period has already run', data: baseRun });
      if (path === '/income/runs/5') return jsonResponse(200, detailOf(baseRun));
      return jsonResponse(200, pageOf([baseRun]));
    });
    renderPage(<RunsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'New Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Run' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start Run' }));
    expect(await screen.findByText('This period has already run: run #5')).toBeTruthy();
    expect(await screen.findByRole('dialog', { name: 'Run #5' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'New Run' })).toBeNull();
  });

  // Issue 24: names for ids, the reversal as labelled fields, TDS and admin charge apart, the lines per member.
  it('shows a reversed run\'s trail: who reversed it by name, why, TDS apart, and its lines per member with an export', async () => {
    signIn(['payouts_view']);
    const reversedRun = { ...baseRun, status: 'reversed', reversedBy: 100002, reversedByName: 'Ravi Operator', reversedAt: '2026-11-04T10:00:00Z' };
    const line = (userId: number, userName: string, status: string, extra: Record<string, unknown> = {}) => ({
      userId, userName, status, gross: 10, tds: 0.5, adminCharge: 0.25, net: 9.25, reason: null, paidNowByName: null, reversedStatus: null, ...extra,
    });
    const lineCalls: string[] = [];
    mockFetch((path) => {
      if (path === '/income/runs/5') {
        return jsonResponse(200, detailOf(reversedRun, {
          state: { tdsBp: 500, adminChargeBp: 250, reversal: { remarks: 'Wrong plan', lines: 27, members: 9, makerId: 100002, approved: false } },
          reversal: { remarks: 'Wrong plan', lines: 27, members: 9, shortfall: 0, requestedByName: 'Ravi Operator', approved: false },
        }));
      }
      if (path.startsWith('/income/runs/5/lines')) {
        lineCalls.push(path);
        return jsonResponse(200, {
          success: true, total: 21, page: path.includes('page=2') ? 2 : 1, limit: 20,
          data: path.includes('page=2') ? [line(21, 'Uma Last', 'Reversed', { reversedStatus: 'Failure' })]
            : [line(1, 'Pooja Rao', 'Reversed', { reversedStatus: 'Success', paidNowByName: 'Ravi Operator' })],
        });
      }
      return jsonResponse(200, pageOf([reversedRun]));
    });
    renderPage(<RunsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Details of run 5' }));
    const drawer = await screen.findByRole('dialog', { name: 'Run #5' });
    const runBox = await within(drawer).findByRole('region', { name: 'Run' });
    expect(within(runBox).getByRole('rowheader', { name: 'Reversed by' }).closest('tr')!.textContent).toBe('Reversed byRavi Operator');
    expect(within(drawer).queryByText(/operator ID/)).toBeNull();
    const reversal = within(drawer).getByRole('region', { name: 'Reversal' });
    expect(within(reversal).getByRole('rowheader', { name: 'Reason' }).closest('tr')!.textContent).toBe('ReasonWrong plan');
    expect(within(reversal).getByRole('rowheader', { name: 'Lines reversed' }).closest('tr')!.textContent).toBe('Lines reversed27');
    expect(within(drawer).queryByText(/Maker id/i)).toBeNull();
    const totalsBox = within(drawer).getByRole('region', { name: 'Totals' });
    expect(within(totalsBox).getByRole('rowheader', { name: 'TDS' }).closest('tr')!.textContent).toBe('TDS₹8,230.45');
    expect(within(totalsBox).getByRole('rowheader', { name: 'Admin charge' }).closest('tr')!.textContent).toBe('Admin charge₹4,115.22');
    expect(within(totalsBox).getByRole('rowheader', { name: 'Net (paid to members)' })).toBeTruthy();
    const lines = await within(drawer).findByRole('table', { name: 'Lines of run 5 per member' });
    expect(await within(lines).findByText('Pooja Rao')).toBeTruthy();
    expect(within(lines).getByText('Paid now by Ravi Operator')).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: /CSV/ })).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: /page 2/i }));
    expect(await within(lines).findByText('Uma Last')).toBeTruthy();
    expect(within(lines).getByText('Was an unpaid failure')).toBeTruthy();
    expect(lineCalls.some((u) => u.includes('page=2'))).toBe(true);
    // Print run: the drawer alone on paper, the button itself left out.
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const printButton = within(drawer).getByRole('button', { name: 'Print run' });
    expect(printButton.closest('.no-print')).toBeTruthy();
    fireEvent.click(printButton);
    await vi.waitFor(() => expect(print).toHaveBeenCalledTimes(1));
  });

  it('opens a run\'s details from the address (?run=4: the Books screen\'s run links), and closing them leaves the list and its page', async () => {
    signIn(['payouts_view']);
    mockFetch((path) => (path === '/income/runs/4' ? jsonResponse(200, detailOf(royalty)) : jsonResponse(200, pageOf([royalty]))));
    renderPage(<RunsPage />, { path: '/income/runs', url: '/income/runs?page=2&run=4' });
    const drawer = await screen.findByRole('dialog', { name: 'Run #4' });
    expect(await within(drawer).findByRole('region', { name: 'Totals' })).toBeTruthy();
    // One heading names the drawer: a second one inside it was invalid HTML (an h2 in an h2).
    expect(within(drawer).getByRole('heading', { level: 2, name: 'Run #4' }).querySelector('h1, h2, h3, h4, h5, h6')).toBeNull();
    fireEvent.keyDown(drawer, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Run #4' })).toBeNull());
    expect(await screen.findByRole('button', { name: 'Details of run 4' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Details of run 4' }));
    expect(await screen.findByRole('dialog', { name: 'Run #4' })).toBeTruthy();
  });

  it('shows a run\'s details: totals, the settings it used, its state, shortfalls with names and what was recovered, and its error', async () => {
    signIn(['payouts_view']);
    const failedRun = { ...royalty, status: 'failed', error: 'Lost the database connection', shortfall: 150.25 };
    mockFetch((path) =>
      path === '/income/runs/4'
        ? jsonResponse(200, detailOf(failedRun, { shortfalls: [{ userId: 100009, userName: 'Kiran Shah', amount: 150.25, recovered: 50 }] }))
        : jsonResponse(200, pageOf([failedRun])),
    );
    renderPage(<RunsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Details of run 4' }));
    const drawer = await screen.findByRole('dialog', { name: 'Run #4' });
    expect(await within(drawer).findByText('The run failed: Lost the database connection')).toBeTruthy();
    const totalsBox = within(drawer).getByRole('region', { name: 'Totals' });
    expect(within(totalsBox).getByText('₹1,23,456.78')).toBeTruthy();
    expect(within(totalsBox).getByText('₹3,450.00')).toBeTruthy();
    const settings = within(drawer).getByRole('region', { name: 'Settings it used' });
    expect(within(settings).getByText('L1 10%, L2 5%, L3 3%, L4 2%, L5 1%, L6 1%, L7 0.5%, L8 0.5%, L9 0.5%, L10 0.5%')).toBeTruthy();
    expect(within(settings).getByRole('rowheader', { name: 'Admin charge' })).toBeTruthy();
    expect(within(settings).getByText('2.5%')).toBeTruthy();
    expect(within(settings).getByText('Bank (primary account)')).toBeTruthy();
    expect(within(settings).getByText("2% of the period's revenue")).toBeTruthy();
    const stateBox = within(drawer).getByRole('region', { name: 'State' });
    const stateLine = (label: string) => within(stateBox).getByRole('rowheader', { name: label }).closest('tr')!.textContent;
    expect(stateLine('Pool')).toBe('Pool₹12,345.67');
    expect(stateLine('Pool percentage')).toBe('Pool percentage2%');
    expect(stateLine("The period's revenue")).toBe("The period's revenue₹6,17,283.50");
    expect(stateLine('Weights by rank')).toBe('Weights by rankRank #1: 1, Rank #3: 5');
    expect(stateLine('Left unpaid (rounding down)')).toBe('Left unpaid (rounding down)₹0.07');
    const shortfalls = within(drawer).getByRole('table', { name: 'Shortfalls of run 4' });
    expect(within(shortfalls).getByText('Kiran Shah')).toBeTruthy();
    expect(within(shortfalls).getByText('₹150.25')).toBeTruthy();
    // Issue 22: what the member's later credits recovered, and what they still owe.
    expect(within(shortfalls).getByRole('columnheader', { name: 'Recovered' })).toBeTruthy();
    expect(within(shortfalls).getByText('₹50.00')).toBeTruthy();
    expect(within(shortfalls).getByText('₹100.25')).toBeTruthy();
  });

  /** Signs in an operator who may run income, lists run 5 and answers its reversal preview and its reverse. */
  function renderReversal(reverse: (init: RequestInit) => Response, preview = () => jsonResponse(200, PREVIEW)) {
    signIn(['payouts_view', 'income_runs']);
    mockFetch((path, init) => {
      if (path === '/income/runs/5/reverse') return reverse(init);
      if (path === '/income/runs/5/reversal-preview') return preview();
      return jsonResponse(200, pageOf([baseRun]));
    });
    renderPage(<RunsPage />);
  }
  const reversed = () => jsonResponse(200, { success: true, message: 'Run #5 was reversed', data: { ...baseRun, status: 'reversed' } });

  async function openReverse() {
    fireEvent.click(await screen.findByRole('button', { name: 'Reverse run 5' }));
    return screen.findByRole('dialog', { name: 'Reverse Run' });
  }

  function confirmReverse(dialog: HTMLElement, remarks: string) {
    fireEvent.change(within(dialog).getByLabelText(/^Remarks/), { target: { value: remarks } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reverse Run' }));
  }

  it('reverses a completed run after asking for remarks', async () => {
    const posts: { body: Record<string, unknown>; key: string | null }[] = [];
    renderReversal((init) => {
      posts.push({ body: bodyOf(init), key: new Headers(init.headers).get('Idempotency-Key') });
      return reversed();
    });
    const dialog = await openReverse();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reverse Run' }));
    expect(await within(dialog).findByText('Please give the reason for reversing this run')).toBeTruthy();
    expect(posts).toHaveLength(0);
    confirmReverse(dialog, '  Paid on a holiday  ');
    expect(await screen.findByText('Run #5 was reversed')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Reverse Run' })).toBeNull();
    expect(posts.map((p) => p.body)).toEqual([{ remarks: 'Paid on a holiday' }]);
    expect(posts[0].key).toMatch(/^[0-9a-f-]{36}$/);
  });

  // Issue 24: the dialog said "net ₹72.00 to 8 members" while 27 lines of 9 members (the Pay Now too) were reversed.
  it('states exactly what the reversal will do, Pay Now lines included, before it is confirmed', async () => {
    let answerPreview = false;
    const posts: RequestInit[] = [];
    renderReversal(
      (init) => {
        posts.push(init);
        return reversed();
      },
      () => (answerPreview ? jsonResponse(200, PREVIEW) : jsonResponse(500, { success: false, message: 'Down' })),
    );
    let dialog = await openReverse();
    expect(await within(dialog).findByText(/^Failed to work out what the reversal will do/)).toBeTruthy();
    confirmReverse(dialog, 'Wrong plan');
    expect(await within(dialog).findByText(/could not be worked out yet/)).toBeTruthy();
    expect(posts).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    answerPreview = true;
    dialog = await openReverse();
    const what = await within(dialog).findByRole('region', { name: 'What will be reversed' });
    expect(within(what).getByText('27 line(s) of 9 member(s) will be reversed.')).toBeTruthy();
    expect(within(what).getByText('Gross ₹90.00, TDS and admin charge ₹9.00, net ₹81.00.')).toBeTruthy();
    expect(within(what).getByText('Included: 3 Pay Now line(s) of 1 member(s), paid after the run.')).toBeTruthy();
    expect(within(what).getByText('2 unpaid failure(s) will be marked Reversed.')).toBeTruthy();
    confirmReverse(dialog, 'Wrong plan');
    expect(await screen.findByText('Run #5 was reversed')).toBeTruthy();
    expect(posts).toHaveLength(1);
  });

  it('shows a reversal above the threshold as awaiting approval, with the approval id, not as done', async () => {
    renderReversal(() => jsonResponse(202, { success: true, message: 'Reversing run #5 awaits approval by a second operator', data: { approvalId: 12, status: 'pending' } }));
    confirmReverse(await openReverse(), 'Wrong plan');
    const notice = await screen.findByRole('status', { name: 'Awaiting approval' });
    expect(notice.textContent).toContain('Reversing run #5 awaits approval by a second operator (approval request #12)');
    expect(screen.queryByRole('dialog', { name: 'Reverse Run' })).toBeNull();
  });

  it('keeps the reverse form open with the server\'s refusal', async () => {
    renderReversal(() => jsonResponse(409, { success: false, message: 'Only a completed run can be reversed' }));
    const dialog = await openReverse();
    await within(dialog).findByRole('region', { name: 'What will be reversed' });
    confirmReverse(dialog, 'Wrong plan');
    expect(await within(dialog).findByText('Failed to reverse the run: Only a completed run can be reversed')).toBeTruthy();
    expect(within(dialog).getByLabelText(/^Remarks/)).toHaveProperty('value', 'Wrong plan');
  });
});
