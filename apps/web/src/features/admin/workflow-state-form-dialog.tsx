import { Badge, Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { WORKFLOW_STATE_TYPES, type WorkflowStateDefinition, type WorkflowStateType } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { STATE_TYPE_COLORS } from '../workflows';
import { stepLabel } from '../../ui/step-label';
import { detailOf, ProblemAlert } from './ordered-list-parts';
import { useWorkflowStateForm } from './use-workflow-state-form';

/** The contract's limits (api/workflows.ts), so nobody types what the server would refuse. */
export const STATE_NAME_MAX = 60;
export const STATE_DESCRIPTION_MAX = 500;

/** Adds a state (state null) or renames and describes one; the type is chosen once, when it is added. */
export function StateFormModal({
  opened,
  state,
  uses,
  onClose,
  onDone,
}: {
  readonly opened: boolean;
  readonly state: WorkflowStateDefinition | null;
  readonly uses: number;
  readonly onClose: () => void;
  readonly onDone: (notice: { readonly kind: 'created' | 'updated'; readonly name: string }) => void;
}) {
  const { t } = useTranslation();
  const { form, problem, save, submit, setType } = useWorkflowStateForm({ state, onDone });

  return (
    <Modal
      opened={opened}
      onClose={() => !save.isPending && onClose()}
      title={state ? t('workflowStatesAdmin.form.editTitle', { name: stepLabel(t, state) }) : t('workflowStatesAdmin.form.createTitle')}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {problem && <ProblemAlert message={t(problem.key)} detail={detailOf(problem)} />}
          <TextInput
            label={t('workflowStatesAdmin.form.name')}
            placeholder={t('workflowStatesAdmin.form.namePlaceholder')}
            {...form.getInputProps('name')}
            maxLength={STATE_NAME_MAX}
            required
            description={state && uses > 0 ? t('workflowStatesAdmin.form.renameNote', { count: uses }) : undefined}
            data-autofocus
          />
          {state ? (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('workflowStatesAdmin.form.type')}
              </Text>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge variant="light" color={STATE_TYPE_COLORS[state.type]} tt="none" style={{ flexShrink: 0 }}>
                  {t(`workflowStateTypes.${state.type}`)}
                </Badge>
                <Text size="xs" c="dimmed">
                  {t('workflowStatesAdmin.form.typeFixed')}
                </Text>
              </Group>
            </Stack>
          ) : (
            <Select
              label={t('workflowStatesAdmin.form.type')}
              description={t('workflowStatesAdmin.form.typeHelp')}
              data={WORKFLOW_STATE_TYPES.map((value) => ({ value, label: t(`workflowStateTypes.${value}`) }))}
              {...form.getInputProps('type')}
              allowDeselect={false}
              onChange={setType}
              comboboxProps={{ withinPortal: true }}
              renderOption={({ option }) => (
                <Stack gap={0}>
                  <Text size="sm">{option.label}</Text>
                  <Text size="xs" c="dimmed">
                    {t(`workflowStatesAdmin.typeDescriptions.${option.value as WorkflowStateType}`)}
                  </Text>
                </Stack>
              )}
            />
          )}
          <Textarea
            label={t('workflowStatesAdmin.form.description')}
            placeholder={t('workflowStatesAdmin.form.descriptionPlaceholder')}
            {...form.getInputProps('description')}
            maxLength={STATE_DESCRIPTION_MAX}
            rows={3}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('workflowStatesAdmin.form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {state ? t('workflowStatesAdmin.form.save') : t('workflowStatesAdmin.form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
