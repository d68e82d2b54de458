import { useMemo, useState } from 'react';
import { useQuery, type QueryKey, type UseMutationResult, type UseQueryOptions } from '@tanstack/react-query';
import { messageOf } from './error-alert';
import { useSuccessBanner } from './success-banner';
import { useListState, type ListState, type UrlState } from './use-url-state';

export interface ResourceOptions<Row, F extends UrlState, Data, Key extends QueryKey> {
  /**
   * The record's name in the spec's messages: 'rank' gives 'Invalid rank ID', 'Rank deleted
   * successfully'. A read-only list (no edit, no delete) needs none.
   */
  noun?: string;
  /** The list's filters and their defaults, kept in the address (a module-level constant). */
  filters: F;
  /**
   * The address state when the screen shares it between parts (tabs over lists: the screen reads
   * the tab, the list its filters and page); by default the resource keeps its own.
   */
  state?: ListState<F>;
  /**
   * The address's filters as the list reads them: a hand-edited value the server would refuse (an
   * unknown status or order) read as its default. The table's order, the query and the screen see
   * these.
   */
  read?: (filters: F) => F; // a module-level function: the filters keep their identity between renders
  /** The list call for the current filters and page (server-side filtering passes them on). */
  query: (filters: F, page: number) => UseQueryOptions<Data, Error, Data, Key>;
  /** The rows of an answer; by default the answer is the rows. */
  rowsOf?: (data: Data) => Row[];
  /** Client-side filtering of the loaded rows. */
  match?: (row: Row, filters: F) => boolean;
  /**
   * Client-side order of a short list the server sends whole (a catalogue): one comparison per
   * sort key, ascending. Lists the server pages are sorted by the server (`sort` in the query).
   */
  compare?: Record<string, (a: Row, b: Row) => number>;
  /** Shown read-only, badged, in place of the list when loading fails (spec §4). */
  sample?: Row[];
  /**
   * What the table shows when loading fails (and no sample stands in): 'empty' its empty state
   * (the default), 'blank' nothing at all (the screen's failure alert says it all).
   */
  onFailure?: 'empty' | 'blank';
  /** A row's id; null when the server sent none (spec §5: such rows can't be edited or deleted). */
  idOf?: (row: Row) => number | null;
  remove?: UseMutationResult<unknown, unknown, number>;
  /** The success banner after a delete; default '{Noun} deleted successfully'. */
  deleted?: (answer: unknown) => string;
  onDeleted?: (row: Row) => void;
}

/**
 * The state of a catalogue screen: the list (filtered, or sample rows when it fails), the open
 * create/edit form, the row awaiting delete confirmation, the success banner and the action error.
 */
export function useResource<Row, F extends UrlState, Data = Row[], Key extends QueryKey = QueryKey>(options: ResourceOptions<Row, F, Data, Key>) {
  const { noun = 'record', remove, sample, match, read } = options;
  const idOf = options.idOf ?? (() => null);
  const Noun = `${noun[0].toUpperCase()}${noun.slice(1)}`;
  const own = useListState(options.filters);
  const state = options.state ?? own;
  const { setFilters, page, setPage, setView } = state;
  const filters = useMemo(() => (read ? read(state.filters) : state.filters), [read, state.filters]);
  const list = useQuery(options.query(filters, page));
  const [form, setForm] = useState<{ editing: Row | null } | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [success, showSuccess] = useSuccessBanner();

  const failed = list.isError && list.data === undefined;
  const loaded = list.data === undefined ? undefined : options.rowsOf ? options.rowsOf(list.data) : (list.data as unknown as Row[]);
  const all = failed ? (sample ?? (options.onFailure === 'blank' ? undefined : [])) : loaded;
  const matching = match && all ? all.filter((row) => match(row, filters)) : all;
  const rows = options.compare && matching ? sortRows(matching, options.compare, filters.sort) : matching;
  // A list whose filters have a `sort` is sortable by its column headers.
  const sort = filters.sort === undefined ? undefined : { value: filters.sort, onChange: (value: string) => setFilters({ sort: value } as unknown as Partial<F>) };

  const done = (message: string) => {
    setActionError(null);
    showSuccess(message);
  };

  return {
    list,
    /** The rows to show: filtered, or the sample rows after a failed load; undefined while loading. */
    rows,
    /** Another page, filter or order is loading: the table shows placeholder rows. */
    loading: list.isPending || list.isPlaceholderData,
    sort,
    failed,
    /** Sample rows are showing: nothing may be changed. */
    readOnly: failed && sample !== undefined,
    filters,
    setFilters,
    /** A value that filters nothing (a detail open over the list): the page stays. */
    setView,
    page,
    setPage,
    form,
    openCreate: () => setForm({ editing: null }),
    openEdit: (row: Row) => {
      if (idOf(row) === null) return setActionError(`Unable to edit ${noun}: No valid ID found`);
      setActionError(null);
      setForm({ editing: row });
    },
    closeForm: () => setForm(null),
    /** The form saved: close it and show the server's (or the screen's) message. */
    saved: (message: string) => {
      setForm(null);
      done(message);
    },
    deleting,
    askDelete: (row: Row) => {
      if (idOf(row) === null) return setActionError(`Invalid ${noun} ID`);
      setActionError(null);
      setDeleting(row);
    },
    cancelDelete: () => setDeleting(null),
    removing: remove?.isPending ?? false,
    confirmDelete: () => {
      const id = deleting && idOf(deleting);
      if (!remove || !deleting || !id) return;
      remove.mutate(id, {
        onSuccess: (answer) => {
          options.onDeleted?.(deleting);
          done(options.deleted?.(answer) ?? `${Noun} deleted successfully`);
        },
        onError: (err) => setActionError(messageOf(err, `Failed to delete ${noun}`)),
        onSettled: () => setDeleting(null),
      });
    },
    success,
    done,
    actionError,
    fail: setActionError,
  };
}

function sortRows<Row>(rows: Row[], compare: Record<string, (a: Row, b: Row) => number>, sort: string | undefined): Row[] {
  if (!sort) return rows;
  const desc = sort.startsWith('-');
  const by = compare[desc ? sort.slice(1) : sort];
  if (!by) return rows;
  return [...rows].sort((a, b) => (desc ? by(b, a) : by(a, b)));
}

/** What the list screen reads of a resource (not its filters: their type is the screen's own). */
export type Resource<Row> = Omit<ReturnType<typeof useResource<Row, UrlState, unknown, QueryKey>>, 'filters' | 'setFilters' | 'setView'>;
