import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoToWireDate } from '../../../contract/common';
import { DEFAULT_INCOME_SETTINGS } from '../../../contract/income';
import { downloadCsvFrom, signIn } from '../../test-utils';
import PlansPage from './plans-page';
import IncomeSettingsPage from './settings-page';

// Issue 24: Download CSV on Plans and on the saved income settings versions.
const SAVED = {
  versionId: 4, effectiveFrom: isoToWireDate('2026-04-01'), settings: DEFAULT_INCOME_SETTINGS, createdBy: 1, createdByName: 'Asha Admin',
  createdAt: '2026-03-31T06:30:00.000Z',
};

describe('income exports', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('Plans', async () => {
    signIn(['membership_view']);
    expect(await downloadCsvFrom(<PlansPage />, { data: [] })).toEqual(['/api/income/plans.csv']);
  });

  it('Income Settings: the saved versions', async () => {
    signIn(['membership_view']);
    expect(await downloadCsvFrom(<IncomeSettingsPage />, { data: { current: SAVED, scheduled: null, history: [SAVED] } }))
      .toEqual(['/api/income/settings/versions.csv']);
  });
});
