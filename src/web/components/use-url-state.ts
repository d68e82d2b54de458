import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigationType, useSearchParams } from 'react-router';

export type UrlState = Record<string, string>;

/**
 * A list's filters and page kept in the address (`?q=gold&page=2`), so a reload or a shared link
 * shows the same rows. A value equal to its default is left out of the address. Changing a filter
 * goes back to page 1. `defaults` must be a constant (module level), not a new object per render.
 *
 * The list state has one owner, React state: every change builds on the one before at once. The
 * address only mirrors it (written with replace, after the render), and is read back when the
 * screen opens and when the operator navigates to it (Back/Forward, a link) — never from our own
 * writes, which the router commits later and possibly out of step with the screen's renders.
 */
export function useListState<F extends UrlState>(defaults: F) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigationType();
  const [search, setSearch] = useState(() => params.toString());

  const written = useRef(search);
  // A navigation the operator made (not one of our replaces) brings its own filters.
  const arrived = useRef(location.key);
  useEffect(() => {
    if (location.key === arrived.current) return;
    arrived.current = location.key;
    if (navigation === 'REPLACE') return;
    const theirs = new URLSearchParams(location.search).toString();
    written.current = theirs;
    setSearch(theirs);
  }, [location.key, location.search, navigation]);

  // The address follows the state.
  useEffect(() => {
    if (search === written.current) return;
    written.current = search;
    // Filtering is not a step the Back button should undo one keystroke at a time.
    setParams(new URLSearchParams(search), { replace: true });
  }, [search, setParams]);

  const current = useMemo(() => new URLSearchParams(search), [search]);
  const filters = useMemo(() => {
    const out: UrlState = {};
    for (const [name, fallback] of Object.entries(defaults)) out[name] = current.get(name) ?? fallback;
    return out as F;
  }, [current, defaults]);
  const page = Math.max(1, Math.floor(Number(current.get('page'))) || 1);

  const write = useCallback(
    (patch: UrlState) =>
      setSearch((before) => {
        const next = new URLSearchParams(before);
        for (const [name, value] of Object.entries(patch)) {
          const fallback = name === 'page' ? '1' : defaults[name];
          if (value === fallback) next.delete(name);
          else next.set(name, value);
        }
        return next.toString();
      }),
    [defaults],
  );

  const setFilters = useCallback((patch: Partial<F>) => write({ ...(patch as UrlState), page: '1' }), [write]);
  const setPage = useCallback((next: number) => write({ page: String(next) }), [write]);
  /** A value that filters nothing (a detail open over the list, `?run=12`): the page stays. */
  const setView = useCallback((patch: Partial<F>) => write(patch as UrlState), [write]);
  return { filters, setFilters, page, setPage, setView };
}

/** A list's address state: its filters and page, and how to change them. */
export type ListState<F extends UrlState> = ReturnType<typeof useListState<F>>;
