import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React renders a prerendered page's HTML (prerender.tsx) and while it hydrates it,
 * true from then on (and in any page rendered in the browser from the start). A prerendered form
 * stays disabled until its handlers are attached: typing or a click before then would be lost.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(never, () => true, () => false);
}
