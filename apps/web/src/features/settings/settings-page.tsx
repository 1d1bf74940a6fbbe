import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  ALLOWED_DOCUMENT_FORMATS,
  AUTH_MECHANISMS,
  GEOLOCATION_TYPES,
  getTenantSettings,
  LANGUAGES,
  type PasswordConfig,
  ROLES,
  type TenantSettingsInForce,
  type TenantSettingsView,
  updateTenantSettings,
  VERIFICATION_MODES,
  VIEW_ENFORCE_OPTIONS,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError, callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { useCan, RequireRoute, accessQueryKeys } from '../../api/access';
import { SuperadminsSection } from './superadmins-section';
import { changeCount, changesOf, draftOf, fieldErrors, type SettingsDraft } from './settings-model';
import { tenantQueryKeys } from '../../api/tenant-queries';

/**
 * /settings (spec §2, super admin only): the tenant's settings and flags, in four groups, and its
 * super admins. One draft spans the groups, so a change on one tab is not lost by opening another;
 * saving sends only what differs, and the server's refusals are shown beside their fields.
 */
export function SettingsPage() {
  return (
    <RequireRoute route="settings">
      <SettingsScreen />
    </RequireRoute>
  );
}

const SECTIONS = ['features', 'signin', 'people', 'epaks', 'superadmins'] as const;
type Section = (typeof SECTIONS)[number];

export const settingsQueryKey = (tenantUuid: string | undefined) => ['tenant', tenantUuid, 'settings'] as const;

function SettingsScreen() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const [searchParams, setSearchParams] = useSearchParams();
  const canListSuperadmins = useCan('superadmin.list');
  useDocumentTitle(`${t('settings.title')} · Pakt`);
  const query = useQuery({
    queryKey: settingsQueryKey(tenant?.tenantUuid),
    queryFn: ({ signal }) => callApi(getTenantSettings, undefined, { signal }),
  });
  const sections = SECTIONS.filter((section) => section !== 'superadmins' || canListSuperadmins);
  const section: Section = sections.find((candidate) => candidate === searchParams.get('section')) ?? 'features';

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('settings.title')}
        </Title>
        <Text c="dimmed">{t('settings.intro', { tenant: tenant?.tenantName ?? '' })}</Text>
      </Stack>
      <Tabs
        value={section}
        keepMounted={false}
        onChange={(value) => setSearchParams(value && value !== 'features' ? { section: value } : {}, { replace: true })}
      >
        <Tabs.List mb="lg">
          {sections.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`settings.sections.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {section === 'superadmins' ? (
          <SuperadminsSection />
        ) : query.data ? (
          <SettingsForm view={query.data} section={section} />
        ) : query.isError ? (
          <Alert color="red" title={t('settings.loadFailed')}>
            {query.error.message}
          </Alert>
        ) : (
          <Center py="xl">
            <Loader size="sm" aria-label={t('settings.loading')} />
          </Center>
        )}
      </Tabs>
    </Stack>
  );
}

type FieldErrors = Record<string, string>;

interface FormProps {
  readonly view: TenantSettingsView;
  readonly draft: SettingsDraft;
  readonly errors: FieldErrors;
  readonly set: <K extends keyof TenantSettingsInForce>(key: K, value: TenantSettingsInForce[K]) => void;
  readonly setPassword: <K extends keyof PasswordConfig>(key: K, value: PasswordConfig[K]) => void;
}

function SettingsForm({ view, section }: { readonly view: TenantSettingsView; readonly section: Exclude<Section, 'superadmins'> }) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(view));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  useEffect(() => setDraft(draftOf(view)), [view]);

  const save = useMutation({
    mutationFn: () => callApi(updateTenantSettings, { body: changesOf(view, draft)! }, { failures: 'caller' }),
    onSuccess: async (next) => {
      setErrors({});
      setSaved(true);
      queryClient.setQueryData(settingsQueryKey(tenant?.tenantUuid), next);
      // The menu, the routes and every screen's configuration follow the new values at once.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accessQueryKeys.all }),
        queryClient.invalidateQueries({ queryKey: tenantQueryKeys.all(tenant?.tenantUuid) }),
      ]);
    },
    onError: (error) => {
      setSaved(false);
      setErrors(error instanceof ApiError ? fieldErrors(error.issues) : {});
    },
  });

  const set: FormProps['set'] = (key, value) => {
    setSaved(false);
    setDraft((current) => ({ ...current, settings: { ...current.settings, [key]: value } }));
  };
  const setPassword: FormProps['setPassword'] = (key, value) => {
    setSaved(false);
    setDraft((current) => ({ ...current, passwordConfig: { ...current.passwordConfig, [key]: value } }));
  };
  const changes = changeCount(view, draft);
  // The bar follows the reader only while there is something to save or to read about a save.
  const pending = changes > 0 || save.isError;
  const props: FormProps = { view, draft, errors, set, setPassword };
  const unplaced = Object.keys(errors).length > 0 ? t('settings.fieldProblems', { count: Object.keys(errors).length }) : null;

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
              onClick={() => {
                setDraft(draftOf(view));
                setErrors({});
                save.reset();
              }}
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

function SettingsCard({ title, intro, children }: { readonly title: string; readonly intro?: string; readonly children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {title}
          </Title>
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Card>
  );
}

type BooleanKey = { [K in keyof TenantSettingsInForce]: TenantSettingsInForce[K] extends boolean ? K : never }[keyof TenantSettingsInForce];

function SettingSwitch({ name, props, disabledNote }: { readonly name: BooleanKey; readonly props: FormProps; readonly disabledNote?: string | null }) {
  const { t } = useTranslation();
  const error = props.errors[`settings.${name}`];
  return (
    <Switch
      checked={props.draft.settings[name]}
      onChange={(event) => props.set(name, event.currentTarget.checked)}
      label={fieldLabel(t, name)}
      description={disabledNote ?? t(`settings.fields.${name}.help`)}
      disabled={!!disabledNote}
      error={error}
    />
  );
}

/**
 * Settings the issue asks to keep, whose feature has not landed yet (identity verification of
 * recipients, separate archive folders, cloud drives): saved and validated now, and said so, so
 * nobody believes they already change anything.
 */
const NOT_YET_APPLIED: ReadonlySet<keyof TenantSettingsInForce> = new Set<keyof TenantSettingsInForce>([
  'verificationMode',
  'sentArchiveFolder',
  'receivedArchiveFolder',
  'cloudDriveUploadEnabled',
  'cloudDriveClientId',
]);

function fieldLabel(t: TFunction, name: keyof TenantSettingsInForce): ReactNode {
  const text = t(`settings.fields.${name}.label`);
  if (!NOT_YET_APPLIED.has(name)) return text;
  return (
    <>
      {text}{' '}
      <Badge size="xs" variant="light" color="gray" style={{ verticalAlign: 'middle' }}>
        {t('settings.notYetApplied')}
      </Badge>
    </>
  );
}
const fieldHelp = (t: TFunction, name: keyof TenantSettingsInForce) => t(`settings.fields.${name}.help`);

function FeaturesGroup(props: FormProps) {
  const { t } = useTranslation();
  const { install } = props.view;
  const offForInstall = (on: boolean) => (on ? null : t('settings.offForInstall'));
  const languages = props.draft.settings.supportedLanguages;
  return (
    <>
      <SettingsCard title={t('settings.groups.features')} intro={t('settings.groups.featuresIntro')}>
        <SettingSwitch name="teamRoomsEnabled" props={props} disabledNote={offForInstall(install.teamRooms)} />
        <SettingSwitch name="pdfCompareEnabled" props={props} disabledNote={offForInstall(install.pdfCompare)} />
        <SettingSwitch name="featuresEnabled" props={props} disabledNote={offForInstall(install.features)} />
        <SettingSwitch name="restrictWorkflow" props={props} />
        <SettingSwitch name="showUserUuidColumn" props={props} />
        <SettingSwitch name="rubberStampEnabled" props={props} />
      </SettingsCard>
      <SettingsCard title={t('settings.groups.adminMenu')} intro={t('settings.groups.adminMenuIntro')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <SettingSwitch name="showEditReasons" props={props} />
          <SettingSwitch name="showEditWorkflowStates" props={props} />
          <SettingSwitch name="showUserSyncUp" props={props} />
          <SettingSwitch name="showFieldMapping" props={props} />
          <SettingSwitch name="showStamps" props={props} />
        </SimpleGrid>
      </SettingsCard>
      <SettingsCard title={t('settings.groups.languages')} intro={t('settings.groups.languagesIntro')}>
        <Checkbox.Group
          value={[...languages]}
          onChange={(value) => props.set('supportedLanguages', LANGUAGES.map((l) => l.code).filter((code) => value.includes(code)))}
          label={fieldLabel(t, 'supportedLanguages')}
          description={fieldHelp(t, 'supportedLanguages')}
          error={props.errors['settings.supportedLanguages']}
        >
          <Group mt="xs" gap="lg">
            {LANGUAGES.filter((language) => install.supportedLanguages.includes(language.code)).map((language) => (
              <Checkbox
                key={language.code}
                value={language.code}
                label={language.nativeName}
                // The last language cannot be taken away: a tenant needs one to be read in.
                disabled={languages.length === 1 && languages[0] === language.code}
              />
            ))}
          </Group>
        </Checkbox.Group>
      </SettingsCard>
    </>
  );
}

function SignInGroup(props: FormProps) {
  const { t } = useTranslation();
  const mechanisms = props.draft.settings.authMechanisms;
  const password = props.draft.passwordConfig;
  const passwordError = (key: keyof PasswordConfig) => props.errors[`passwordConfig.${key}`];
  const number = (key: 'minLength' | 'historyCount' | 'expiryDays' | 'lockoutMinutes', min: number, max: number) => (
    <NumberInput
      label={t(`settings.password.${key}.label`)}
      description={t(`settings.password.${key}.help`)}
      value={password[key]}
      min={min}
      max={max}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="strict"
      onChange={(value) => props.setPassword(key, typeof value === 'number' ? value : min)}
      error={passwordError(key)}
    />
  );
  return (
    <>
      <SettingsCard title={t('settings.groups.signIn')} intro={t('settings.groups.signInIntro')}>
        <Checkbox.Group
          value={[...mechanisms]}
          onChange={(value) => props.set('authMechanisms', AUTH_MECHANISMS.filter((mechanism) => value.includes(mechanism)))}
          label={fieldLabel(t, 'authMechanisms')}
          description={fieldHelp(t, 'authMechanisms')}
          error={props.errors['settings.authMechanisms']}
        >
          <Stack mt="xs" gap="xs">
            {AUTH_MECHANISMS.map((mechanism) => (
              <Checkbox
                key={mechanism}
                value={mechanism}
                label={t(`settings.authMechanisms.${mechanism}`)}
                // Passwords are this install's only first factor, and it has no identity provider.
                disabled={mechanism === 'MSBAUTH' || (mechanism === 'SSO' && !mechanisms.includes('SSO'))}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      </SettingsCard>
      <SettingsCard title={t('settings.groups.sessions')} intro={t('settings.groups.sessionsIntro')}>
        <SettingSwitch name="singleSession" props={props} />
        <SettingSwitch name="bindSessionToAddress" props={props} />
      </SettingsCard>
      <SettingsCard title={t('settings.groups.passwords')} intro={t('settings.groups.passwordsIntro')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {number('minLength', 8, 128)}
          {number('historyCount', 0, 24)}
          {number('expiryDays', 0, 3650)}
          {/* No per-tenant count of wrong passwords: sign-in pauses a device after the same number
              for every address, known or not, so the pause cannot tell whether an address has an
              account, nor whose tenant it is in (docs/security.md). */}
          {number('lockoutMinutes', 1, 1440)}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {(['requireUppercase', 'requireLowercase', 'requireDigit', 'requireSpecial'] as const).map((key) => (
            <Checkbox
              key={key}
              checked={password[key]}
              onChange={(event) => props.setPassword(key, event.currentTarget.checked)}
              label={t(`settings.password.${key}`)}
              error={passwordError(key)}
            />
          ))}
        </SimpleGrid>
      </SettingsCard>
    </>
  );
}

const RECIPIENT_ROLES = ROLES.filter((role) => role !== 'root');
const SYNC_ROLES = ['custodian', 'submitter', 'signer', 'registrar'] as const;

function PeopleGroup(props: FormProps) {
  const { t } = useTranslation();
  const settings = props.draft.settings;
  return (
    <>
      <SettingsCard title={t('settings.groups.invitations')} intro={t('settings.groups.invitationsIntro')}>
        <NumberInput
          label={fieldLabel(t, 'invitationValidityDays')}
          description={fieldHelp(t, 'invitationValidityDays')}
          value={settings.invitationValidityDays}
          min={1}
          max={90}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="strict"
          maw={320}
          onChange={(value) => props.set('invitationValidityDays', typeof value === 'number' ? value : 1)}
          error={props.errors['settings.invitationValidityDays']}
        />
        <SettingSwitch name="skipNewUsers" props={props} />
      </SettingsCard>
      <SettingsCard title={t('settings.groups.recipients')} intro={t('settings.groups.recipientsIntro')}>
        <TagsInput
          label={fieldLabel(t, 'recipientDomains')}
          description={fieldHelp(t, 'recipientDomains')}
          placeholder={t('settings.fields.recipientDomains.placeholder')}
          value={[...settings.recipientDomains]}
          onChange={(value) => props.set('recipientDomains', value.map((domain) => domain.trim().toLowerCase()).filter(Boolean))}
          maxTags={50}
          clearable
          error={props.errors['settings.recipientDomains']}
        />
        <SettingSwitch name="recipientsVerifiedOnly" props={props} />
        <MultiSelect
          label={fieldLabel(t, 'recipientRoles')}
          description={fieldHelp(t, 'recipientRoles')}
          placeholder={settings.recipientRoles.length === 0 ? t('settings.fields.recipientRoles.anyone') : undefined}
          data={RECIPIENT_ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
          value={[...settings.recipientRoles]}
          onChange={(value) => props.set('recipientRoles', RECIPIENT_ROLES.filter((role) => value.includes(role)))}
          clearable
          comboboxProps={{ withinPortal: true }}
          error={props.errors['settings.recipientRoles']}
        />
      </SettingsCard>
      <SettingsCard title={t('settings.groups.userSync')} intro={t('settings.groups.userSyncIntro')}>
        <TextInput
          label={fieldLabel(t, 'userSyncFileName')}
          description={fieldHelp(t, 'userSyncFileName')}
          placeholder="people.csv"
          value={settings.userSyncFileName ?? ''}
          maw={420}
          onChange={(event) => props.set('userSyncFileName', event.currentTarget.value.trim() === '' ? null : event.currentTarget.value.trim())}
          error={props.errors['settings.userSyncFileName']}
        />
        <Select
          label={fieldLabel(t, 'userSyncDefaultRole')}
          description={fieldHelp(t, 'userSyncDefaultRole')}
          data={SYNC_ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
          value={settings.userSyncDefaultRole}
          allowDeselect={false}
          maw={320}
          onChange={(value) => value && props.set('userSyncDefaultRole', value as (typeof SYNC_ROLES)[number])}
          error={props.errors['settings.userSyncDefaultRole']}
        />
        <SettingSwitch name="userSyncDisableMissing" props={props} />
      </SettingsCard>
    </>
  );
}

function EpaksGroup(props: FormProps) {
  const { t } = useTranslation();
  const settings = props.draft.settings;
  const choice = <K extends 'viewEnforceOption' | 'geolocationType' | 'verificationMode'>(
    name: K,
    values: readonly TenantSettingsInForce[K][],
    labelOf: (value: TenantSettingsInForce[K]) => string,
  ) => (
    <Select
      label={fieldLabel(t, name)}
      description={fieldHelp(t, name)}
      data={values.map((value) => ({ value, label: labelOf(value) }))}
      value={settings[name]}
      allowDeselect={false}
      maw={420}
      onChange={(value) => value && props.set(name, value as TenantSettingsInForce[K])}
      error={props.errors[`settings.${name}`]}
    />
  );
  const days = (name: 'ePakExpiryDays' | 'ePakRetentionDays', max: number) => (
    <NumberInput
      label={fieldLabel(t, name)}
      description={fieldHelp(t, name)}
      placeholder={t('settings.noLimit')}
      value={settings[name] ?? ''}
      min={1}
      max={max}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="strict"
      onChange={(value) => props.set(name, typeof value === 'number' ? value : null)}
      error={props.errors[`settings.${name}`]}
    />
  );
  return (
    <>
      <SettingsCard title={t('settings.groups.epaks')} intro={t('settings.groups.epaksIntro')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {days('ePakExpiryDays', 3650)}
          {days('ePakRetentionDays', 36500)}
        </SimpleGrid>
        <SettingSwitch name="sentArchiveFolder" props={props} />
        <SettingSwitch name="receivedArchiveFolder" props={props} />
      </SettingsCard>
      <SettingsCard title={t('settings.groups.signing')} intro={t('settings.groups.signingIntro')}>
        {choice('viewEnforceOption', VIEW_ENFORCE_OPTIONS, (value) => t(`settings.options.viewEnforceOption.${value}`))}
        {choice('geolocationType', GEOLOCATION_TYPES, (value) => t(`settings.options.geolocationType.${value}`))}
        {choice('verificationMode', VERIFICATION_MODES, (value) => t(`settings.options.verificationMode.${value}`))}
      </SettingsCard>
      <SettingsCard title={t('settings.groups.documents')} intro={t('settings.groups.documentsIntro')}>
        <Checkbox.Group
          value={[...settings.disabledDocumentFormats]}
          onChange={(value) => props.set('disabledDocumentFormats', ALLOWED_DOCUMENT_FORMATS.filter((format) => value.includes(format)))}
          label={fieldLabel(t, 'disabledDocumentFormats')}
          description={fieldHelp(t, 'disabledDocumentFormats')}
          error={props.errors['settings.disabledDocumentFormats']}
        >
          <SimpleGrid mt="xs" cols={{ base: 3, sm: 6 }} spacing="xs">
            {ALLOWED_DOCUMENT_FORMATS.filter((format) => format !== 'pdf').map((format) => (
              <Checkbox key={format} value={format} label={format} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
      </SettingsCard>
      <SettingsCard title={t('settings.groups.cloudDrive')} intro={t('settings.groups.cloudDriveIntro')}>
        <SettingSwitch name="cloudDriveUploadEnabled" props={props} />
        <TextInput
          label={fieldLabel(t, 'cloudDriveClientId')}
          description={fieldHelp(t, 'cloudDriveClientId')}
          value={settings.cloudDriveClientId ?? ''}
          maw={420}
          onChange={(event) => props.set('cloudDriveClientId', event.currentTarget.value.trim() === '' ? null : event.currentTarget.value)}
          error={props.errors['settings.cloudDriveClientId']}
          rightSection={settings.cloudDriveUploadEnabled && settings.cloudDriveClientId ? <Badge size="xs">{t('settings.on')}</Badge> : null}
          rightSectionWidth={48}
        />
      </SettingsCard>
    </>
  );
}
