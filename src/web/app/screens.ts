import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { PATHS } from '../lib/paths';
import { loadStylesheet } from '../lib/stylesheet';
import type { MainPath } from './paths';

/** A screen's module: the page, and optionally how to start loading its first data before it renders. */
type ScreenModule = Promise<{ default: ComponentType; prefetch?: (client: QueryClient) => void }>;

/**
 * The code of each sidebar screen, loaded on its first visit (React.lazy in router.tsx) — or
 * before: the shell fetches the screens of the sidebar while it is idle, and a sidebar link
 * fetches its own as soon as the pointer or the focus reaches it, so that a click finds the code
 * in place; pressing the link also starts the screen's first request (its `prefetch`), which
 * then runs while the route changes and the page renders (issue 23: the users page's first
 * rows within 600 ms of a click).
 */
export const SCREENS: Record<MainPath, () => ScreenModule> = {
  [PATHS.dashboard]: () => import('../features/dashboard/dashboard-page'),
  [PATHS.users]: () => import('../features/users/users-page'),
  [PATHS.services]: () => import('../features/services/services-page'),
  [PATHS.revenue]: () => import('../features/reports/revenue-page'),
  [PATHS.royaltyIncome]: () => import('../features/reports/royalty-income-page'),
  [PATHS.rewardIncome]: () => import('../features/reports/reward-income-page'),
  [PATHS.dailyPayout]: () => import('../features/payouts/payouts-page'),
  [PATHS.wallet]: () => import('../features/wallet/wallet-page'),
  [PATHS.rank]: () => import('../features/ranks/ranks-page'),
  [PATHS.bank]: () => import('../features/banks/bank-page'),
  [PATHS.membership]: () => import('../features/membership/membership-page'),
  [PATHS.permissions]: () => import('../features/permissions/permissions-page'),
  [PATHS.roles]: () => import('../features/roles/roles-page'),
  [PATHS.rolePermissions]: () => import('../features/role-permissions/role-permissions-page'),
  [PATHS.audit]: () => import('../features/audit/audit-page'),
  [PATHS.staff]: () => import('../features/staff/staff-page'),
  [PATHS.approvals]: () => import('../features/approvals/approvals-page'),
  [PATHS.plans]: () => import('../features/income/plans-page'),
  [PATHS.incomeSettings]: () => import('../features/income/settings-page'),
  [PATHS.runs]: () => import('../features/income/runs-page'),
  [PATHS.bankTransfers]: () => import('../features/bank-transfers/bank-transfers-page'),
  [PATHS.books]: () => import('../features/books/books-page'),
  [PATHS.tdsReport]: () => import('../features/tax/tds-report-page'),
  [PATHS.monthlyStatement]: () => import('../features/tax/monthly-statement-page'),
};

const started = new Map<MainPath, ScreenModule>();
const arrived = new Map<MainPath, ComponentType>();

/** Starts loading a screen's code (once); a failure is left for the visit itself to report. */
export function preloadScreen(path: MainPath): ScreenModule {
  let loading = started.get(path);
  if (!loading) {
    loading = SCREENS[path]();
    loading.catch(() => started.delete(path));
    started.set(path, loading);
    Promise.all([loading, loadStylesheet()]).then(([screen]) => arrived.set(path, screen.default), () => {});
  }
  return loading;
}

/** The screen's page once its code and the panel's stylesheet have arrived (router.tsx renders it without suspending). */
export function arrivedScreen(path: MainPath): ComponentType | undefined {
  return arrived.get(path);
}

const idle = (run: () => void) =>
  typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(run, { timeout: 2000 }) : window.setTimeout(run, 50);

/** The link was pressed: the screen's code, then its first request (the click follows at once). */
export function prefetchScreen(path: MainPath, client: QueryClient): void {
  preloadScreen(path).then(
    (screen) => screen.prefetch?.(client),
    () => {},
  );
}

/**
 * Loads these screens one after another when the page is idle, in the sidebar's order: the first
 * `soon` right away, the others a while apart, so that loading them never holds up what the
 * operator does meanwhile on a busy machine.
 */
export function preloadWhenIdle(paths: readonly MainPath[], soon = 2, gapMs = 1500): () => void {
  // Unit tests render the shell hundreds of times: loading every screen behind each would only
  // slow them (a screen still loads when its link is pointed at, and when it is opened).
  if (import.meta.env.MODE === 'test') return () => {};
  let stopped = false;
  let timer: number | undefined;
  const next = (i: number) => {
    if (stopped || i >= paths.length) return;
    idle(() => {
      if (stopped) return;
      const after = () => {
        if (i + 1 < soon) next(i + 1);
        else timer = window.setTimeout(() => next(i + 1), gapMs);
      };
      preloadScreen(paths[i]).then(after, after);
    });
  };
  next(0);
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
