import { Box, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface Fact {
  readonly label: string;
  readonly value: ReactNode;
  /** Hashes and distinguished names: monospace is easier to compare character by character. */
  readonly mono?: boolean;
}

/**
 * Labelled facts as a description list: label over value, two columns from a tablet up, one on a
 * phone. Values wrap anywhere because a hash or a certificate subject has no spaces to break at,
 * and must not push the page sideways at 375 px.
 */
export function FactList({ facts, label }: { readonly facts: readonly Fact[]; readonly label?: string }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="xs" m={0} aria-label={label}>
      {facts.map((fact) => (
        <Box key={fact.label} miw={0}>
          <Text component="dt" size="xs" c="dimmed">
            {fact.label}
          </Text>
          <Text component="dd" size="sm" m={0} ff={fact.mono ? 'monospace' : undefined} style={{ overflowWrap: 'anywhere' }}>
            {fact.value}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}
