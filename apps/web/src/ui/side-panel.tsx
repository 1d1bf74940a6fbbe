import { Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

/** A box of the ceremony's side column: a heading the section is named by, a line of intro, then its content. */
export function SidePanel({
  title,
  intro,
  gap = 'sm',
  testId,
  children,
}: {
  readonly title: string;
  readonly intro: string;
  readonly gap?: 'sm' | 'md';
  readonly testId?: string;
  readonly children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId} data-testid={testId}>
      <Stack gap={gap}>
        <Stack gap={2}>
          <Title order={2} size="h5" id={headingId}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {intro}
          </Text>
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
