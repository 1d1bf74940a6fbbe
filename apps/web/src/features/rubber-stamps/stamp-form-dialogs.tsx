import { Alert, Button, FileButton, Group, Image, Modal, MultiSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { RUBBER_STAMP_MAX_SIZE_KB, RUBBER_STAMP_NAME_MAX_LENGTH, type RubberStamp } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../api/access';
import { acceptOf } from '../../ui/image-file';
import { PersonPicker } from '../../ui/person-picker';
import { STAMP_RULE, useShareForm, useStampForm } from './use-stamp-form';

export function StampDialog({ stamp, onClose }: { readonly stamp: RubberStamp | null; readonly onClose: () => void }) {
  const { t } = useTranslation();
  const { form, file, problem, resetPicker, previewUrl, save, onPick, onSubmit, nameMissing, nothingToSave } = useStampForm({ stamp, onClose });
  const name = form.values.name;
  return (
    <Modal opened onClose={onClose} title={t(stamp ? 'rubberStamps.editTitle' : 'rubberStamps.addTitle')} centered>
      <Stack gap="md" component="form" onSubmit={onSubmit}>
        <TextInput label={t('rubberStamps.name')} {...form.getInputProps('name')} maxLength={RUBBER_STAMP_NAME_MAX_LENGTH} required data-autofocus />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t(stamp ? 'rubberStamps.replaceImage' : 'rubberStamps.image')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('rubberStamps.imageHelp', { maxKb: RUBBER_STAMP_MAX_SIZE_KB })}
          </Text>
          <Group gap="sm" wrap="wrap">
            <FileButton onChange={(picked) => void onPick(picked)} accept={acceptOf(STAMP_RULE)} resetRef={resetPicker}>
              {(props) => (
                <Button {...props} variant="default" size="xs">
                  {t('rubberStamps.chooseImage')}
                </Button>
              )}
            </FileButton>
            {file && (
              <Text size="xs" style={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="stamp-file-name">
                {file.name}
              </Text>
            )}
          </Group>
          {previewUrl && (
            <Paper withBorder radius="sm" p={4} w="fit-content">
              <Image src={previewUrl} alt={t('rubberStamps.imageAlt', { name: name.trim() || file?.name || '' })} h={96} w="auto" fit="contain" />
            </Paper>
          )}
        </Stack>
        {problem && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('rubberStamps.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={nameMissing || nothingToSave}>
            {t(stamp ? 'rubberStamps.save' : 'rubberStamps.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function ShareDialog({ stamp, groups, onClose }: { readonly stamp: RubberStamp; readonly groups: readonly { groupId: string; groupName: string }[]; readonly onClose: () => void }) {
  const { t } = useTranslation();
  // The directory is searched by whoever may compose; a signer shares with groups.
  const maySearchPeople = useCan('epak.compose');
  const { form, save, setPeople, submit } = useShareForm({ stamp, onClose });
  return (
    <Modal opened onClose={onClose} title={t('rubberStamps.shareTitle', { name: stamp.name })} centered>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('rubberStamps.shareIntro')}
        </Text>
        {groups.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('rubberStamps.noGroups')}
          </Text>
        ) : (
          <MultiSelect
            label={t('rubberStamps.groups')}
            placeholder={t('rubberStamps.groupsPlaceholder')}
            data={groups.map((group) => ({ value: group.groupId, label: group.groupName }))}
            {...form.getInputProps('groupIds')}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {maySearchPeople ? (
          <PersonPicker label={t('rubberStamps.people')} chosen={form.values.people} onChange={setPeople} />
        ) : (
          <Text size="xs" c="dimmed">
            {t('rubberStamps.peopleUnavailable')}
          </Text>
        )}
        {save.isError && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {t('rubberStamps.shareFailed')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('rubberStamps.cancel')}
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            {t('rubberStamps.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
