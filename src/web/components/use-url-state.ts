import { useCallback, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

export type UrlState = Record<string, string>;

/**
 * A list's filters and page kept in the address (`?q=gold&page=2`), so a reload or a shared link
 * shows the same rows. A value equal to its default is left out of the address. Changing a filter
 * goes back to page 1. `defaults` must be a constant (module level), not a new object per render.
 *
 * The router commits a new address asynchronously, so the hook keeps its own copy that changes at
 * once: two changes in a row (clear the name, then pick a level) each build on the one before,
 * never on an address the router has not committed yet. Back/forward (an address the hook did not
 * write) replaces the copy.
 */
export function useListState<F extends UrlState>(defaults: F) {
  const [params, setParams] = useSearchParams();
  const address = params.toString();
  const [search, setSearch] = useState(address);
  const latest = useRef(address);
  const seen = useRef(address);
  if (address !== seen.current) {
    // The router committed a new address: ours (already in the copy) or back/forward.
    seen.current = address;
    if (address !== latest.current) {
      latest.current = address;
      setSearch(address);
    }
  }

  const current = useMemo(() => new URLSearchParams(search), [search]);
  const filters = useMemo(() => {
    const out: UrlState = {};
    for (const [name, fallback] of Object.entries(defaults)) out[name] = current.get(name) ?? fallback;
    return out as F;
  }, [current, defaults]);
  const page = Math.max(1, Math.floor(Number(current.get('page'))) || 1);

  const write = useCallback(
    (patch: UrlState) => {
      const next = new URLSearchParams(latest.current);
      for (const [name, value] of Object.entries(patch)) {
        const fallback = name === 'page' ? '1' : defaults[name];
        if (value === fallback) next.delete(name);
        else next.set(name, value);
      }
      latest.current = next.toString();
      setSearch(latest.current);
      // Filtering is not a step the Back button should undo one keystroke at a time.
      setParams(next, { replace: true });
    },
    [setParams, defaults],
  );

  const setFilters = useCallback((patch: Partial<F>) => write({ ...(patch as UrlState), page: '1' }), [write]);
  const setPage = useCallback((next: number) => write({ page: String(next) }), [write]);
  return { filters, setFilters, page, setPage };
}
