import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { auditApi, type AuditQuery } from '../../../contract/audit';
import { client } from '../../lib/api-client';

const audit = client(auditApi);

export const auditQueryOptions = (filter: AuditQuery) => {
  const input = { query: filter };
  return queryOptions({
    queryKey: audit.list.key(input),
    queryFn: ({ signal }) => audit.list(input, { signal }),
    placeholderData: keepPreviousData,
  });
};
