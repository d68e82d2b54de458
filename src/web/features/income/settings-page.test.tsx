import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoToWireDate } from '../../../contract/common';
import { DEFAULT_INCOME_SETTINGS } from '../../../contract/income';
import { jsonResponse, mockFetch, renderPage, signIn } from '../../test-utils';
import { istDay } from './plans.api';
import IncomeSettingsPage from './settings-page';

const FRESH = {
  current: { versionId: null, effectiveFrom: isoToWireDate(istDay(0)), settings: DEFAULT_INCOME_SETTINGS, createdBy: null, createdByName: null, createdAt: null },
  scheduled: null,
  history: [],
};
const SAVED = {
  versionId: 4, effectiveFrom: '01-04-2026', settings: { ...DEFAULT_INCOME_SETTINGS, tdsPercent: 2 },
  createdBy: 1, createdByName: 'Asha Admin', createdAt: '2026-03-31T06:30:00.000Z',
};
const WITH_HISTORY = { current: SAVED, scheduled: null, history: [SAVED] };

function serve(data: unknown, onSave: (body: unknown) => Response = () => jsonResponse(500, {})) {
  return mockFetch((path, init) => {
    if (path === '/income/settings' && init.method === 'PUT') return onSave(JSON.parse(String(init.body)));
    if (path === '/income/settings') return jsonResponse(200, { success: true, data });
    return jsonResponse(404, { success: false, message: 'Not found' });
  });
}

describe('IncomeSettingsPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows every setting read-only to an account without income_settings, with the defaults on a fresh install', async () => {
    signIn(['membership_view']);
    serve(FRESH);
    renderPage(<IncomeSettingsPage />);
    expect(await screen.findByText('In force today: the defaults (never saved).')).toBeTruthy();
    const level1 = screen.getByLabelText('Level 1 (%)') as HTMLInputElement;
    expect(level1.value).toBe('10');
    expect(level1.disabled || level1.matches(':disabled')).toBe(true);
    expect((screen.getByLabelText('Level 10 (%)') as HTMLInputElement).value).toBe('0.5');
    expect((screen.getByLabelText(/^TDS \(%\)/) as HTMLInputElement).value).toBe('5');
    expect(screen.getByLabelText(/Compression/)).toBeTruthy();
    expect(screen.getByText(/an inactive upline's share passes up to the next active upline/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByText('Never saved: the defaults are in force')).toBeTruthy();
  });

  it('checks the form before sending (a message under its field, the text kept), then saves a version from tomorrow', async () => {
    signIn(['membership_view', 'income_settings']);
    const saved: unknown[] = [];
    serve(WITH_HISTORY, (body) => {
      saved.push(body);
      return jsonResponse(200, { success: true, message: `Income settings saved: in force from ${isoToWireDate(istDay(1))}`, data: SAVED });
    });
    renderPage(<IncomeSettingsPage />);
    expect(await screen.findByText('In force since 01-04-2026.')).toBeTruthy();
    const versions = screen.getByRole('table', { name: 'Income settings versions' });
    expect(within(versions).getByText('Asha Admin')).toBeTruthy();
    expect(within(versions).getByText('In force')).toBeTruthy();
    const date = screen.getByLabelText(/Effective from/) as HTMLInputElement;
    expect(date.value).toBe(istDay(1));

    fireEvent.change(screen.getByLabelText('Level 1 (%)'), { target: { value: '12,5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Level income must be a number')).toBeTruthy();
    expect(screen.getByLabelText('Level 1 (%)').getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByLabelText('Level 1 (%)') as HTMLInputElement).value).toBe('12,5');
    fireEvent.change(screen.getByLabelText('Level 1 (%)'), { target: { value: '12.5' } });
    fireEvent.change(screen.getByLabelText(/^TDS \(%\)/), { target: { value: '60' } });
    fireEvent.change(screen.getByLabelText(/Admin charge/), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('TDS and admin charge must add up to at most 100 %')).toBeTruthy();
    expect(saved).toEqual([]);

    fireEvent.change(screen.getByLabelText(/^TDS \(%\)/), { target: { value: '2.5' } });
    fireEvent.click(screen.getByLabelText(/Compression/));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(`Income settings saved: in force from ${isoToWireDate(istDay(1))}`)).toBeTruthy();
    expect(saved).toEqual([{
      settings: { ...DEFAULT_INCOME_SETTINGS, levelIncome: [12.5, ...DEFAULT_INCOME_SETTINGS.levelIncome.slice(1)], compression: true, tdsPercent: 2.5, adminChargePercent: 50 },
      effectiveFrom: isoToWireDate(istDay(1)),
    }]);
  });

  it('offers today for the very first save, and shows the target fields only for a target reward', async () => {
    signIn(['membership_view', 'income_settings']);
    serve(FRESH);
    renderPage(<IncomeSettingsPage />);
    const date = (await screen.findByLabelText(/Effective from/)) as HTMLInputElement;
    expect(date.value).toBe(istDay(0));
    expect(screen.queryByLabelText(/Monthly reward target/)).toBeNull();
  });

  it('shows the server\u2019s refusal at the top of the form', async () => {
    signIn(['membership_view', 'income_settings']);
    serve(WITH_HISTORY, () => jsonResponse(409, { success: false, message: 'The settings of 02-04-2026 are already in force and cannot be changed' }));
    renderPage(<IncomeSettingsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The settings of 02-04-2026 are already in force and cannot be changed')).toBeTruthy();
  });
});
