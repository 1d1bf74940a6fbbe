import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { SIGN_REASON_MAX_LENGTH, type SigningReason } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { detailOf, ProblemAlert } from './ordered-list-parts';
import { useReasonForm } from './use-reason-form';

/** Adds a reason (reason null) or changes one's words; a built-in reason's new words are the tenant's own. */
export function ReasonFormModal({
  opened,
  reason,
  onClose,
  onDone,
}: {
  readonly opened: boolean;
  readonly reason: SigningReason | null;
  readonly onClose: () => void;
  readonly onDone: (notice: { readonly kind: 'created' | 'updated'; readonly text: string }) => void;
}) {
  const { t } = useTranslation();
  const { form, problem, save, submit } = useReasonForm({ reason, onClose, onDone });

  return (
    <Modal
      opened={opened}
      onClose={() => !save.isPending && onClose()}
      title={reason ? t('reasonsAdmin.form.editTitle') : t('reasonsAdmin.form.createTitle')}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {problem && <ProblemAlert message={t(problem.key)} detail={detailOf(problem)} />}
          <TextInput
            label={t('reasonsAdmin.form.text')}
            placeholder={t('reasonsAdmin.form.placeholder')}
            {...form.getInputProps('text')}
            maxLength={SIGN_REASON_MAX_LENGTH}
            required
            description={reason?.key ? t('reasonsAdmin.form.builtInNote') : t('reasonsAdmin.form.hint', { max: SIGN_REASON_MAX_LENGTH })}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('reasonsAdmin.form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {reason ? t('reasonsAdmin.form.save') : t('reasonsAdmin.form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
