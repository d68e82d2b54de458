import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';
import { sortParts, type SortValue } from '../../contract/common.ts';

/**
 * The ORDER BY of a list's `sort` (contract `sortParam`): the chosen column, then a unique
 * tie-break in the same direction, so that pages never repeat or skip a row and an index on
 * (column, tie-break) serves both directions. Column expressions come from the module, never
 * from the request.
 */
export function orderSql<K extends string>(sort: SortValue<K>, columns: Record<K, string>, tiebreak: string): string {
  const { key, desc: down } = sortParts(sort);
  const dir = down ? 'desc' : 'asc';
  const column = columns[key];
  return column === tiebreak ? `${column} ${dir}` : `${column} ${dir}, ${tiebreak} ${dir}`;
}

/** The same for Drizzle's builder: `.orderBy(...orderBy(sort, { name: ranks.name }, ranks.rankId))`. */
export function orderBy<K extends string>(sort: SortValue<K>, columns: Record<K, AnyColumn | SQL>, tiebreak: AnyColumn): SQL[] {
  const { key, desc: down } = sortParts(sort);
  const dir = down ? desc : asc;
  const column = columns[key];
  return column === tiebreak ? [dir(column)] : [dir(column), dir(tiebreak)];
}
