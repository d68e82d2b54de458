import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AuditPage, AuditQuery } from '../../../contract/audit';
import { apiRequest } from '../../lib/api-client';

/** The query string of a filter: empty values are left out. */
export function auditSearch(filter: AuditQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

export const auditQueryOptions = (filter: AuditQuery) =>
  queryOptions({
    queryKey: ['audit', filter],
    queryFn: ({ signal }) => apiRequest<AuditPage>(`/audit/logs?${auditSearch(filter)}`, { signal }),
    placeholderData: keepPreviousData,
  });
