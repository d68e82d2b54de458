// Test fixtures: the plans list (/income/plans) as the activation form reads it, shared by the
// income and membership tests.
const version = (over: Record<string, unknown> = {}) => ({
  versionId: 1, planId: 1, effectiveFrom: '01-04-2026', name: 'Gold Plan', price: 1000, dailyMode: 'percent', dailyValue: 1.5,
  dailyAmount: 15, durationDays: 200, cap: 2000, active: true, createdBy: 1, createdByName: 'Asha Admin', createdAt: '2026-04-01T06:30:00.000Z',
  ...over,
});

/** Gold Plan (active) and Old Plan (inactive). */
export const PLANS = {
  success: true,
  data: [
    { planId: 1, current: version(), scheduled: null },
    { planId: 2, current: version({ versionId: 2, planId: 2, name: 'Old Plan', active: false }), scheduled: null },
  ],
};
