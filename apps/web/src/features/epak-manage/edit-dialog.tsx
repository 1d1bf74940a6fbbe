import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { editEpak, type EpakDetail } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSigningApi } from '../../api/signing-api';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { dialogTestId } from './confirm-dialog';
import { isoFromLocalInput, toLocalInput } from './local-time';
import { changedUnderneath } from './manage-errors';
import { RefusalAlert } from './refusal-alert';
import { useEpakAction, useRefreshEpak } from './use-manage-data';

const SUBJECT_MAX = 200;
const MESSAGE_MAX = 4000;

/**
 * Editing a running ePak (editEpak): its subject, message and expiry, against the version the
 * owner opened (`base.modifiedOn`). When someone acted in the meantime the server refuses (-306):
 * the dialog says so and offers to reload, which fills the form again from the ePak as it is now,
 * since saving the old values over the new state is exactly what the check is there to prevent.
 */
export function EditDialog({ base, onClose, onSaved }: { readonly base: EpakDetail | null; readonly onClose: () => void; readonly onSaved: () => void }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<EpakDetail | null>(null);
  // What the form edits: the ePak as it was when opened, or as reloaded after a -306.
  const current = loaded && base && loaded.ePakId === base.ePakId ? loaded : base;
  const close = () => {
    setLoaded(null);
    onClose();
  };
  return (
    <Modal opened={base !== null} onClose={close} title={t('epakManage.edit.title')} centered size="lg" attributes={dialogTestId('manage-edit-dialog')}>
      {current && <EditForm key={current.modifiedOn} epak={current} onCancel={close} onReloaded={setLoaded} onSaved={() => { setLoaded(null); onSaved(); }} />}
    </Modal>
  );
}

function EditForm({ epak, onCancel, onReloaded, onSaved }: { readonly epak: EpakDetail; readonly onCancel: () => void; readonly onReloaded: (epak: EpakDetail) => void; readonly onSaved: () => void }) {
  const { t } = useTranslation();
  const { callApi, scope } = useSigningApi();
  const queryClient = useQueryClient();
  const refresh = useRefreshEpak(epak.ePakId);
  const [subject, setSubject] = useState(epak.subject);
  const [message, setMessage] = useState(epak.message ?? '');
  const [expiresOn, setExpiresOn] = useState(toLocalInput(epak.expiresOn));
  const [problem, setProblem] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const save = useEpakAction(
    epak.ePakId,
    (input: { subject: string; message: string | null; expiresOn: string | null }) =>
      callApi(editEpak, { body: { ePakId: epak.ePakId, modifiedOn: epak.modifiedOn, ...input } }, { failures: 'caller' }),
    { onSuccess: onSaved },
  );
  const submit = () => {
    setProblem(null);
    const expiry = isoFromLocalInput(expiresOn);
    if (!subject.trim()) return setProblem(t('epakManage.edit.subjectRequired'));
    if (expiry === undefined) return setProblem(t('epakManage.edit.dateInvalid'));
    save.mutate({ subject: subject.trim(), message: message.trim() || null, expiresOn: expiry });
  };
  const reload = async () => {
    setReloading(true);
    try {
      await refresh();
      const fresh = queryClient.getQueryData<EpakDetail>(signingQueryKeys.epak(scope, epak.ePakId));
      if (fresh) onReloaded(fresh);
    } finally {
      setReloading(false);
    }
  };
  const stale = save.isError && changedUnderneath(save.error);
  return (
    <Stack gap="sm">
      <TextInput label={t('epakManage.edit.subject')} required maxLength={SUBJECT_MAX} value={subject} onChange={(event) => setSubject(event.currentTarget.value)} data-autofocus />
      <Textarea label={t('epakManage.edit.message')} rows={3} resize="vertical" maxLength={MESSAGE_MAX} value={message} onChange={(event) => setMessage(event.currentTarget.value)} />
      <TextInput
        type="datetime-local"
        label={t('epakManage.edit.expiresOn')}
        description={t('epakManage.edit.expiresHint')}
        value={expiresOn}
        onChange={(event) => setExpiresOn(event.currentTarget.value)}
        data-testid="manage-edit-expiry"
      />
      <Text size="xs" c="dimmed">
        {t('epakManage.edit.recipientsHint')}
      </Text>
      {problem && (
        <Alert color="red" variant="light" role="alert" p="xs" data-testid="manage-dialog-error">
          {problem}
        </Alert>
      )}
      {save.isError && (
        <RefusalAlert error={save.error} stale={stale} name="edit" reloadLabel={t('epakManage.edit.reload')} onReload={() => void reload()} reloading={reloading} />
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={save.isPending}>
          {t('epakManage.cancel')}
        </Button>
        <Button onClick={submit} loading={save.isPending} disabled={stale} data-testid="manage-edit-dialog-confirm">
          {t('epakManage.edit.save')}
        </Button>
      </Group>
    </Stack>
  );
}
