import { Alert, Stack, Text } from '@mantine/core';
import { policyRequiresReasonTag, type EpakDetail } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { TagEditor } from '../tag-editor';
import { usePolicyName } from './signing-policy-picker';
import type { useFieldsAutosave } from './use-fields-autosave';

/**
 * The fields step: the tag editor on the draft's documents, saved by itself as the person works
 * (the editor's autoSave, through useFieldsAutosave). A policy that wants a reason beside
 * every signature says so before anything is placed: the editor does not add the reason field
 * itself, and sending is refused without it (-49).
 */
export function ComposeFieldsStep({ epak, autosave }: { readonly epak: EpakDetail; readonly autosave: ReturnType<typeof useFieldsAutosave> }) {
  const { t } = useTranslation();
  const policyName = usePolicyName();
  return (
    <Stack gap="md">
      <Alert color="blue" variant="light" role="status" title={t('compose.draft.saved')}>
        {t('compose.draft.tagsNext')}
      </Alert>
      {policyRequiresReasonTag(epak.signingPolicy) && (
        <Alert color="yellow" variant="light" title={t('compose.fields.reasonTitle')} data-testid="compose-reason-requirement">
          {t('compose.fields.reasonBody', { policy: policyName(epak.signingPolicy), field: t('tagEditor.types.reason') })}
        </Alert>
      )}
      <TagEditor epak={epak} autoSave={autosave.editor} />
      <Text size="sm" c="dimmed">
        {t('compose.fields.autosaveHint')}
      </Text>
    </Stack>
  );
}
