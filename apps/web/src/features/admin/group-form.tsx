import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { GROUP_NAME_LENGTH, type Group as GroupData } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PlusIcon } from '../../ui/icons';
import { PersonPicker } from '../../ui/person-picker';
import type { GroupProblem } from './group-model';
import { useCreateGroupForm, useRenameGroupForm } from './use-group-form';

/** The problem said above a form or a group, in words of its own or the server's. */
export function ProblemAlert({ problem }: { readonly problem: GroupProblem | null }) {
  const { t } = useTranslation();
  if (!problem) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {t(problem.key)}
      {problem.detail && (
        <Text size="xs" mt={4}>
          {problem.detail}
        </Text>
      )}
    </Alert>
  );
}

export function CreateGroupForm({ onCreated }: { readonly onCreated: (group: GroupData) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const { form, problem, create, setName, setMembers, onSubmit } = useCreateGroupForm({ onCreated });
  const { name, members } = form.values;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id={headingId}>
            {t('groups.create.title')}
          </Title>
          {problem && !problem.onName && <ProblemAlert problem={problem} />}
          <TextInput
            label={t('groups.create.name')}
            description={t('groups.nameHint', { length: name.trim().length, max: GROUP_NAME_LENGTH })}
            required
            {...form.getInputProps('name')}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <PersonPicker label={t('groups.create.members')} chosen={members} onChange={setMembers} disabled={create.isPending} />
          <Group>
            <Button type="submit" loading={create.isPending} leftSection={<PlusIcon size={16} />}>
              {t('groups.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function RenameForm({
  group,
  onDone,
  onGone,
  headingId,
}: {
  readonly group: GroupData;
  readonly onDone: (renamed: boolean) => void;
  readonly onGone: () => void;
  readonly headingId: string;
}) {
  const { t } = useTranslation();
  const { form, problem, rename, setName, onSubmit } = useRenameGroupForm({ group, onDone, onGone });
  const { name } = form.values;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Title order={2} size="h3" id={headingId}>
          {t('groups.detail.renameTitle', { name: group.groupName })}
        </Title>
        {problem && !problem.onName && <ProblemAlert problem={problem} />}
        <TextInput
          label={t('groups.detail.newName')}
          description={t('groups.nameHint', { length: name.trim().length, max: GROUP_NAME_LENGTH })}
          required
          {...form.getInputProps('name')}
          data-autofocus
          autoFocus
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <Group gap="sm">
          <Button type="submit" size="sm" loading={rename.isPending}>
            {t('groups.detail.save')}
          </Button>
          <Button variant="default" size="sm" onClick={() => onDone(false)} disabled={rename.isPending}>
            {t('groups.detail.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
