import { ActionIcon, Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ArrowDownIcon, ArrowUpIcon, PlusIcon } from '../../ui/icons';

/**
 * The parts the admin screens of an ordered, never-deleted catalogue share (signing reasons,
 * workflow states): the heading with its add button, the numbered list, the move buttons and the
 * notices. Each screen keeps its own words and row content; the loading and failed states are
 * ui/query-placeholder's.
 */

/** The heading of the screen; the add button shows once the list is there to add to. */
export function OrderedListHeader({
  title,
  intro,
  addLabel,
  onAdd,
}: {
  readonly title: string;
  readonly intro: string;
  readonly addLabel: string;
  /** Undefined while the list is not loaded. */
  readonly onAdd: (() => void) | undefined;
}) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Stack gap={4} maw={680} style={{ flex: '1 1 280px' }}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {title}
        </Title>
        <Text c="dimmed">{intro}</Text>
      </Stack>
      {onAdd && (
        <Button leftSection={<PlusIcon size={16} />} onClick={onAdd}>
          {addLabel}
        </Button>
      )}
    </Group>
  );
}

/** The numbered list with its count above it. */
export function OrderedList({ count, label, children }: { readonly count: string; readonly label: string; readonly children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {count}
      </Text>
      <Stack component="ol" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
        {children}
      </Stack>
    </Stack>
  );
}

/** A row's place in the order, read out by its label. */
export function PositionBadge({ position, label }: { readonly position: number; readonly label: string }) {
  return (
    <Badge size="lg" circle variant="default" aria-label={label} style={{ flexShrink: 0 }}>
      {position}
    </Badge>
  );
}

/** Up and down by one place; the first cannot go up, the last not down, and nothing moves while a change is on its way. */
export function MoveButtons({
  upLabel,
  downLabel,
  first,
  last,
  busy,
  moving = 0,
  onMove,
}: {
  readonly upLabel: string;
  readonly downLabel: string;
  readonly first: boolean;
  readonly last: boolean;
  readonly busy: boolean;
  /** The way this row is being moved right now: -1 up, 1 down, 0 not. */
  readonly moving?: number;
  readonly onMove: (by: -1 | 1) => void;
}) {
  return (
    <>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={upLabel} disabled={first || busy} loading={moving < 0} onClick={() => onMove(-1)}>
        <ArrowUpIcon size={18} />
      </ActionIcon>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={downLabel} disabled={last || busy} loading={moving > 0} onClick={() => onMove(1)}>
        <ArrowDownIcon size={18} />
      </ActionIcon>
    </>
  );
}

/** The server's own words a refusal carries, when it said more than its code. */
export function detailOf(problem: object): string | undefined {
  return 'detail' in problem && typeof problem.detail === 'string' ? problem.detail : undefined;
}

/** A refusal: the screen's words, and the server's own below them when it said more. */
export function ProblemAlert({
  message,
  detail,
  closeLabel,
  onClose,
}: {
  readonly message: string;
  readonly detail?: string | undefined;
  /** Given with onClose for a notice that can be dismissed; a form's alert goes when the form is sent again. */
  readonly closeLabel?: string;
  readonly onClose?: () => void;
}) {
  return (
    <Alert color="red" variant="light" role="alert" withCloseButton={!!onClose} closeButtonLabel={closeLabel} onClose={onClose}>
      {message}
      {detail && (
        <Text size="xs" mt={4}>
          {detail}
        </Text>
      )}
    </Alert>
  );
}

/** What a change did, until dismissed or the next change. */
export function DoneAlert({ message, closeLabel, onClose }: { readonly message: string; readonly closeLabel: string; readonly onClose: () => void }) {
  return (
    <Alert color="teal" variant="light" role="status" withCloseButton closeButtonLabel={closeLabel} onClose={onClose}>
      {message}
    </Alert>
  );
}
