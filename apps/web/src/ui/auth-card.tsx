import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The frame of the sign-in, setup and registration screens: one narrow card, centred, that takes
 * the full width on a phone.
 */
export function AuthCard({
  title,
  description,
  children,
  maw = 460,
}: {
  readonly title: ReactNode;
  readonly description?: ReactNode;
  readonly children: ReactNode;
  readonly maw?: number;
}) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', xs: 'xl' }} maw={maw} mx="auto" mt={{ base: 0, sm: 'md' }} shadow="xs">
      <Stack gap="lg">
        <Stack gap={6}>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {title}
          </Title>
          {description && <Text c="dimmed">{description}</Text>}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
