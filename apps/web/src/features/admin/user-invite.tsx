import { Alert, Anchor, Button, FileInput, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ASSIGNABLE_ROLES, csvInvite, csvInviteTemplate, INVITE_CSV_MAX_BYTES, Invitee, inviteUsers } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { useMailDelivered } from '../../api/public-queries';
import { DownloadIcon, UploadIcon, UserPlusIcon } from '../../ui/icons';
import { afterUserChange, type CsvOutcome, csvOutcome, csvRowMessageKey, roleLabelKey, type UserProblem, userProblem } from './user-model';
import { saveBlob } from '../../ui/save-blob';

type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

const EMPTY_INVITEE = { email: '', firstName: '', middleName: '', lastName: '', role: 'signer' as AssignableRole };

/** Invites one person (invite type admin_invite): the domain's schema checks the fields before anything is sent. */
export function InviteDialog({ opened, onClose }: { readonly opened: boolean; readonly onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('users.invite.title')} centered>
      {opened && <InviteForm onClose={onClose} />}
    </Modal>
  );
}

/** The invitee as the domain reads it: a blank middle name is none. */
const parseInvitee = (values: typeof EMPTY_INVITEE) => Invitee.safeParse({ ...values, middleName: values.middleName.trim() || undefined });

function InviteForm({ onClose }: { readonly onClose: () => void }) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  // The domain's schema is the form's rule: from the first try on, each field says what it lacks as it is typed.
  const form = useForm({
    mode: 'controlled',
    initialValues: EMPTY_INVITEE,
    validate: (values) => {
      const parsed = parseInvitee(values);
      if (parsed.success) return {};
      const errors: Record<string, string> = {};
      for (const field of ['email', 'firstName', 'lastName'] as const) {
        if (parsed.error.issues.some((issue) => issue.path[0] === field)) errors[field] = t(`users.invite.errors.${field}`);
      }
      return errors;
    },
  });
  const [submitted, setSubmitted] = useState(false);
  const [problem, setProblem] = useState<UserProblem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // Without a mail server the invitation only reaches the outbox: never say it went.
  const mailDelivered = useMailDelivered();

  const invite = useMutation({
    // The caller explains refusals itself: -13 (disabled here) travels with a 403 that must not leave the page.
    mutationFn: (invitee: Invitee) => callApi(inviteUsers, { body: { users: [invitee] } }, { failures: 'caller' }),
    onSuccess: async (_, invitee) => {
      setDone(invitee.email);
      form.reset();
      setSubmitted(false);
      await afterUserChange(queryClient, tenant?.tenantUuid);
    },
    onError: (error) => setProblem(userProblem(error)),
  });

  const set = (field: keyof typeof EMPTY_INVITEE) => (value: string) => {
    form.setFieldValue(field, value);
    if (submitted) form.validate();
    setProblem(null);
    setDone(null);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setProblem(null);
    setDone(null);
    form.validate();
    const parsed = parseInvitee(form.getValues());
    if (parsed.success) invite.mutate(parsed.data);
  };
  const field = (name: 'email' | 'firstName' | 'middleName' | 'lastName') => ({
    ...form.getInputProps(name),
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(name)(event.currentTarget.value),
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        {done && (
          <Alert color="green" variant="light" role="status">
            {t(mailDelivered ? 'users.invite.done' : 'users.invite.doneOutbox', { email: done })}
          </Alert>
        )}
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {t(problem.key)}
            {problem.detail && (
              <Text size="xs" mt={4}>
                {problem.detail}
              </Text>
            )}
          </Alert>
        )}
        <TextInput label={t('common.email')} type="email" required {...field('email')} data-autofocus />
        <TextInput label={t('common.firstName')} required {...field('firstName')} />
        <TextInput label={t('common.middleName')} {...field('middleName')} />
        <TextInput label={t('common.lastName')} required {...field('lastName')} />
        <Select
          label={t('users.invite.role')}
          data={ASSIGNABLE_ROLES.map((value) => ({ value, label: t(roleLabelKey(value)) }))}
          {...form.getInputProps('role')}
          allowDeselect={false}
          onChange={(value) => value && set('role')(value)}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onClose}>
            {t('users.close')}
          </Button>
          <Button type="submit" loading={invite.isPending} leftSection={<UserPlusIcon size={16} />}>
            {t('users.invite.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}


/** Invites the people of a CSV file: the template, the upload, then what became of every row. */
export function CsvInviteDialog({ opened, onClose }: { readonly opened: boolean; readonly onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('users.csv.title')} centered size="lg">
      {opened && <CsvInviteForm onClose={onClose} />}
    </Modal>
  );
}

function CsvInviteForm({ onClose }: { readonly onClose: () => void }) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [outcome, setOutcome] = useState<CsvOutcome | null>(null);
  const tooBig = file !== null && file.size > INVITE_CSV_MAX_BYTES;

  const template = useMutation({
    mutationFn: () => callApi(csvInviteTemplate, undefined, { failures: 'caller' }),
    // The contract types these bytes as unknown (not BinaryBody), though the client hands a Blob.
    onSuccess: (blob) => {
      if (blob instanceof Blob) saveBlob(blob, 'invite-template.csv');
    },
  });
  const upload = useMutation({
    mutationFn: (chosen: File) => callApi(csvInvite, { files: { file: chosen } }, { failures: 'caller' }),
    onMutate: () => setOutcome(null),
    onSuccess: async (data) => {
      setOutcome(csvOutcome({ data }));
      await afterUserChange(queryClient, tenant?.tenantUuid);
    },
    onError: async (error) => {
      const found = csvOutcome({ error });
      setOutcome(found);
      // Some rows may have been invited all the same.
      if (found.kind === 'result' && found.result.invited.length > 0) await afterUserChange(queryClient, tenant?.tenantUuid);
    },
  });

  return (
    <Stack gap="md">
      <Text size="sm">{t('users.csv.intro')}</Text>
      <Group gap="xs">
        <Anchor component="button" type="button" size="sm" onClick={() => template.mutate()}>
          <Group gap={4} wrap="nowrap">
            <DownloadIcon size={16} />
            {t('users.csv.template')}
          </Group>
        </Anchor>
        {template.isError && (
          <Text size="xs" c="red" role="alert">
            {t('users.csv.templateFailed')}
          </Text>
        )}
      </Group>
      <FileInput
        label={t('users.csv.file')}
        placeholder={t('users.csv.filePlaceholder')}
        accept=".csv,text/csv"
        value={file}
        onChange={(chosen) => {
          setFile(chosen);
          setOutcome(null);
        }}
        clearable
        error={tooBig ? t('users.csv.fileErrors.tooBig') : undefined}
        leftSection={<UploadIcon size={16} />}
      />
      <CsvOutcomeView outcome={outcome} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('users.close')}
        </Button>
        <Button disabled={!file || tooBig} loading={upload.isPending} onClick={() => file && upload.mutate(file)} leftSection={<UploadIcon size={16} />}>
          {t('users.csv.upload')}
        </Button>
      </Group>
    </Stack>
  );
}

function CsvOutcomeView({ outcome }: { readonly outcome: CsvOutcome | null }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  if (outcome.kind === 'file') {
    return (
      <Alert color="red" variant="light" role="alert" data-testid="csv-file-error">
        {t(outcome.key)}
        {outcome.detail && (
          <Text size="xs" mt={4}>
            {outcome.detail}
          </Text>
        )}
      </Alert>
    );
  }
  const { invited, failed } = outcome.result;
  return (
    <Stack gap="xs" data-testid="csv-result">
      <Alert color={invited.length > 0 ? 'green' : 'yellow'} variant="light" role="status">
        {t('users.csv.invited', { count: invited.length })}
        {failed.length > 0 && ` ${t('users.csv.failedCount', { count: failed.length })}`}
      </Alert>
      {failed.length > 0 && (
        <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('users.csv.failedLabel')}>
          {failed.map((row) => {
            const key = csvRowMessageKey(row.code);
            return (
              <Alert key={`${row.line}-${row.field ?? ''}`} component="li" color="red" variant="light" p="xs" data-testid="csv-failed-row">
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {t('users.csv.line', { line: row.line })} · {row.email || t('users.csv.noEmail')}
                  {row.field && ` · ${t(`users.csv.fields.${row.field}`)}`}
                </Text>
                <Text size="sm">{key ? t(key) : row.message}</Text>
              </Alert>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
