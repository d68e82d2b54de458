import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '../lib/api-client';

interface QueryViewProps<T> {
  query: UseQueryResult<T>;
  /** Shown while the first answer loads: a `Skeleton` of the part's size. */
  skeleton: ReactNode;
  /** Said in red when the load fails and the server gives no message of its own. */
  failure: string;
  /** The part itself, from the answer. */
  children: (data: T) => ReactNode;
}

/** One query's part of a screen (a card, a section): its skeleton while it loads, its failure in red, else the part. */
export function QueryView<T>({ query, skeleton, failure, children }: QueryViewProps<T>) {
  if (query.isPending) return skeleton;
  if (query.isError) {
    return (
      <Text size="sm" c="red" role="alert">
        {errorMessage(query.error, failure)}
      </Text>
    );
  }
  return children(query.data);
}
