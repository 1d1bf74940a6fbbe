import { Alert, Button, Group, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * What stands in a query's place while it loads (a spinner named for what loads) or after it
 * failed (an alert with a retry); null once its data is there. `centred` puts the spinner in the
 * middle of a page-wide list rather than at the start of a section.
 */
export function queryPlaceholder(
  query: Pick<UseQueryResult, 'isPending' | 'isError' | 'isFetching' | 'refetch'>,
  words: { readonly loading: string; readonly loadFailed: string; readonly retry: string },
  options: { readonly centred?: boolean } = {},
): ReactNode {
  if (query.isPending) {
    const loader = <Loader size="sm" aria-label={words.loading} />;
    return options.centred ? (
      <Group justify="center" py="xl">
        {loader}
      </Group>
    ) : (
      loader
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={words.loadFailed}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void query.refetch()} loading={query.isFetching}>
          {words.retry}
        </Button>
      </Alert>
    );
  }
  return null;
}
