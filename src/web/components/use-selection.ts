import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

/**
 * Which rows of a server-paged list a bulk action will touch: rows picked one by one (on any page),
 * or every row the list's filter matches. A change of the filter (`resetKey`) clears it, so that an
 * action never reaches rows the operator can no longer see.
 */
export type SelectionMode = 'none' | 'page' | 'all';

export interface Selection<Id extends string | number> {
  /** 'page': the ids picked by hand (from one or more pages); 'all': every row of the filter. */
  mode: SelectionMode;
  ids: ReadonlySet<Id>;
  /** How many rows the action will touch. */
  count: number;
  isSelected: (id: Id) => boolean;
  toggle: (id: Id) => void;
  /** Selects the current page, or clears it when all of it is selected. */
  togglePage: () => void;
  selectAllMatching: () => void;
  clear: () => void;
  /** The header checkbox: none, some or all of the current page selected. */
  pageState: 'none' | 'some' | 'all';
}

export function useSelection<Id extends string | number>({
  pageIds,
  total,
  resetKey,
}: {
  /** The ids of the rows on the current page that can be selected. */
  pageIds: readonly Id[];
  /** How many rows the filter matches. */
  total: number;
  /** Anything that changes the matching rows (the filters): a change clears the selection. */
  resetKey: unknown;
}): Selection<Id> {
  const [ids, setIds] = useState<ReadonlySet<Id>>(() => new Set());
  const [all, setAll] = useState(false);

  const key = JSON.stringify(resetKey ?? null);
  const lastKey = useRef(key);
  useEffect(() => {
    if (lastKey.current === key) return;
    lastKey.current = key;
    setIds(new Set());
    setAll(false);
  }, [key]);

  const onPage = pageIds.filter((id) => all || ids.has(id)).length;
  const pageState: Selection<Id>['pageState'] =
    pageIds.length === 0 || onPage === 0 ? 'none' : onPage === pageIds.length ? 'all' : 'some';

  const toggle = useCallback(
    (id: Id) => {
      if (all) {
        // Leaving "every matching row" for a hand-picked set: the current page minus this row.
        setAll(false);
        setIds(new Set(pageIds.filter((other) => other !== id)));
        return;
      }
      setIds((previous) => {
        const next = new Set(previous);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    [all, pageIds],
  );

  const togglePage = useCallback(() => {
    if (all || pageState === 'all') {
      setAll(false);
      setIds((previous) => {
        const next = new Set(previous);
        for (const id of pageIds) next.delete(id);
        return all ? new Set() : next;
      });
      return;
    }
    setIds((previous) => new Set([...previous, ...pageIds]));
  }, [all, pageIds, pageState]);

  const selectAllMatching = useCallback(() => {
    setAll(true);
    setIds(new Set());
  }, []);

  const clear = useCallback(() => {
    setAll(false);
    setIds(new Set());
  }, []);

  return useMemo(
    () => ({
      mode: all ? 'all' : ids.size > 0 ? 'page' : 'none',
      ids,
      count: all ? total : ids.size,
      isSelected: (id: Id) => all || ids.has(id),
      toggle,
      togglePage,
      selectAllMatching,
      clear,
      pageState,
    }),
    [all, ids, total, toggle, togglePage, selectAllMatching, clear, pageState],
  );
}
