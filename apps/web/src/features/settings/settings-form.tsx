import { Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { TenantSettingsView } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { EpaksGroup, FeaturesGroup, PeopleGroup, SignInGroup } from './settings-groups';
import { useSettingsForm } from './use-settings-form';

/** The tabs that show settings (the super admins' tab is a list of its own). */
export type SettingsSection = 'features' | 'signin' | 'people' | 'epaks';

export function SettingsForm({ view, section }: { readonly view: TenantSettingsView; readonly section: SettingsSection }) {
  const { t } = useTranslation();
  const { form, saved, save, changes, props, discard } = useSettingsForm(view);
  // The bar follows the reader only while there is something to save or to read about a save.
  const pending = changes > 0 || save.isError;
  const unplaced = Object.keys(form.errors).length > 0 ? t('settings.fieldProblems', { count: Object.keys(form.errors).length }) : null;

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (changes > 0) save.mutate();
      }}
    >
      <Stack gap="lg" pb={pending ? 96 : 'lg'}>
        {section === 'features' && <FeaturesGroup {...props} />}
        {section === 'signin' && <SignInGroup {...props} />}
        {section === 'people' && <PeopleGroup {...props} />}
        {section === 'epaks' && <EpaksGroup {...props} />}
      </Stack>
      {/* Stays in sight while changes wait, so a change is never left unsaved unnoticed. */}
      <Card
        withBorder
        shadow="md"
        padding="sm"
        pos={pending ? 'sticky' : 'static'}
        bottom={12}
        style={{ zIndex: 5 }}
        role="region"
        aria-label={t('settings.saveBar')}
      >
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Box>
            {save.isError ? (
              <Text c="red" size="sm" role="alert">
                {unplaced ?? (save.error instanceof Error ? save.error.message : t('settings.saveFailed'))}
              </Text>
            ) : saved && changes === 0 ? (
              <Text c="teal" size="sm" role="status">
                {t('settings.saved')}
              </Text>
            ) : (
              <Text c="dimmed" size="sm">
                {changes > 0 ? t('settings.changes', { count: changes }) : t('settings.noChanges')}
              </Text>
            )}
          </Box>
          <Group gap="xs">
            <Button
              variant="default"
              disabled={changes === 0 || save.isPending}
              onClick={discard}
            >
              {t('settings.discard')}
            </Button>
            <Button type="submit" disabled={changes === 0} loading={save.isPending}>
              {t('settings.save')}
            </Button>
          </Group>
        </Group>
      </Card>
    </form>
  );
}
