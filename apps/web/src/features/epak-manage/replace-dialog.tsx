import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { EmailAddress, type EndpointData, replaceEpakRecipient, type EpakDetail } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSigningApi } from '../../api/signing-api';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { dialogTestId } from './confirm-dialog';
import { changedUnderneath } from './manage-errors';
import { RefusalAlert } from './refusal-alert';
import type { TimelineRecipient, TimelineStep } from './timeline';
import { useEpakAction, useRefreshEpak } from './use-manage-data';
import { stepLabel } from '../../ui/step-label';

const NAME_MAX = 100;

/** Whom the dialog changes: the place, its step, and the ePak as the owner saw it when they asked. */
export interface ReplaceTarget {
  readonly recipient: TimelineRecipient;
  readonly step: TimelineStep;
  readonly base: EpakDetail;
}

export type ReplaceAnswer = EndpointData<typeof replaceEpakRecipient>;

/** Is the place still someone's who has not acted, in a step not finished, in the ePak as it is now? */
function stillReplaceable(epak: EpakDetail, recipientId: string): boolean {
  if (epak.status !== 'InProgress' || epak.currentStep === null) return false;
  return epak.steps.some(
    (step) => step.order >= epak.currentStep! && step.recipients.some((r) => r.recipientId === recipientId && (r.status === 'Pending' || r.status === 'DelegatePending')),
  );
}

/**
 * Giving a recipient's place to someone else (replaceEpakRecipient), against the version of the
 * ePak the owner was looking at (`base.modifiedOn`). When someone acted meanwhile the server
 * refuses (-306): the dialog says so and offers to reload; the address typed stays, since it is
 * still what the owner means, but the place is checked again in the ePak as it now is.
 */
export function ReplaceDialog({ target, onClose, onDone }: { readonly target: ReplaceTarget | null; readonly onClose: () => void; readonly onDone: (answer: ReplaceAnswer, target: ReplaceTarget) => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={target !== null} onClose={onClose} title={target ? t('epakManage.replace.title', { name: target.recipient.name }) : ''} centered attributes={dialogTestId('manage-replace-dialog')}>
      {target && <ReplaceForm key={target.recipient.recipientId} target={target} onCancel={onClose} onDone={onDone} />}
    </Modal>
  );
}

function ReplaceForm({ target, onCancel, onDone }: { readonly target: ReplaceTarget; readonly onCancel: () => void; readonly onDone: (answer: ReplaceAnswer, target: ReplaceTarget) => void }) {
  const { t } = useTranslation();
  const { callApi, scope } = useSigningApi();
  const queryClient = useQueryClient();
  const { recipient, step } = target;
  const ePakId = target.base.ePakId;
  const refresh = useRefreshEpak(ePakId);
  // The ePak the change is made against: as opened, or as reloaded after a -306.
  const [base, setBase] = useState(target.base);
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [reloading, setReloading] = useState(false);
  const save = useEpakAction(
    ePakId,
    (input: { modifiedOn: string; email: string; firstName?: string; lastName?: string }) =>
      callApi(replaceEpakRecipient, { params: { ePakId, recipientId: recipient.recipientId }, body: input }, { failures: 'caller' }),
    { onSuccess: (answer) => onDone(answer, target) },
  );
  const replaceable = stillReplaceable(base, recipient.recipientId);
  const stale = save.isError && changedUnderneath(save.error);
  const underWay = base.currentStep === step.order;

  const confirm = () => {
    const address = email.trim().toLowerCase();
    if (!EmailAddress.safeParse(address).success) return setInvalid(true);
    save.mutate({
      modifiedOn: base.modifiedOn,
      email: address,
      ...(firstName.trim() ? { firstName: firstName.trim() } : {}),
      ...(lastName.trim() ? { lastName: lastName.trim() } : {}),
    });
  };
  const reload = async () => {
    setReloading(true);
    try {
      await refresh();
      const fresh = queryClient.getQueryData<EpakDetail>(signingQueryKeys.epak(scope, ePakId));
      if (fresh) {
        setBase(fresh);
        save.reset();
      }
    } finally {
      setReloading(false);
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm">{t('epakManage.replace.intro', { name: recipient.name, email: recipient.email, step: stepLabel(t, step) })}</Text>
      <Text size="sm" c="dimmed">
        {underWay ? t('epakManage.replace.introUnderWay', { name: recipient.name }) : t('epakManage.replace.introLater')}
      </Text>
      <TextInput
        type="email"
        label={t('epakManage.replace.email')}
        required
        value={email}
        error={invalid ? t('common.emailInvalid') : undefined}
        data-autofocus
        data-testid="manage-replace-email"
        onChange={(event) => {
          setEmail(event.currentTarget.value);
          setInvalid(false);
        }}
      />
      <Group grow gap="sm" align="flex-start">
        <TextInput label={t('epakManage.replace.firstName')} maxLength={NAME_MAX} value={firstName} onChange={(event) => setFirstName(event.currentTarget.value)} data-testid="manage-replace-first-name" />
        <TextInput label={t('epakManage.replace.lastName')} maxLength={NAME_MAX} value={lastName} onChange={(event) => setLastName(event.currentTarget.value)} data-testid="manage-replace-last-name" />
      </Group>
      <Text size="xs" c="dimmed">
        {t('epakManage.replace.namesHint')}
      </Text>
      {!replaceable && (
        <Alert color="orange" variant="light" role="alert" p="xs" data-testid="manage-replace-gone">
          {t('epakManage.replace.gone', { name: recipient.name })}
        </Alert>
      )}
      {replaceable && save.isError && (
        <RefusalAlert error={save.error} stale={stale} name="replace" reloadLabel={t('epakManage.replace.reload')} onReload={() => void reload()} reloading={reloading} />
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={save.isPending}>
          {t('epakManage.cancel')}
        </Button>
        <Button onClick={confirm} loading={save.isPending} disabled={stale || !replaceable} data-testid="manage-replace-dialog-confirm">
          {t('epakManage.replace.confirm')}
        </Button>
      </Group>
    </Stack>
  );
}
