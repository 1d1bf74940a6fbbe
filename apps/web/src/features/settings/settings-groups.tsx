import { Badge, Card, Checkbox, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import {
  ALLOWED_DOCUMENT_FORMATS,
  AUTH_MECHANISMS,
  COMPLETION_MAIL_RECIPIENTS,
  GEOLOCATION_TYPES,
  LANGUAGES,
  type PasswordConfig,
  ROLES,
  type TenantSettingsInForce,
  type TenantSettingsView,
  VERIFICATION_MODES,
  VIEW_ENFORCE_OPTIONS,
} from '@pakt/domain';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SettingsDraft } from './settings-model';

export type FieldErrors = Record<string, string>;

export interface FormProps {
  readonly view: TenantSettingsView;
  readonly draft: SettingsDraft;
  readonly errors: FieldErrors;
  readonly set: <K extends keyof TenantSettingsInForce>(key: K, value: TenantSettingsInForce[K]) => void;
  readonly setPassword: <K extends keyof PasswordConfig>(key: K, value: PasswordConfig[K]) => void;
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
 * Settings the issue asks to keep, whose feature has not landed yet (separate archive folders,
 * cloud drives): saved and validated now, and said so, so
 * nobody believes they already change anything.
 */
const NOT_YET_APPLIED: ReadonlySet<keyof TenantSettingsInForce> = new Set<keyof TenantSettingsInForce>([
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

export function FeaturesGroup(props: FormProps) {
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

export function SignInGroup(props: FormProps) {
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

export function PeopleGroup(props: FormProps) {
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

export function EpaksGroup(props: FormProps) {
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
      <SettingsCard title={t('settings.groups.completionMail')} intro={t('settings.groups.completionMailIntro')}>
        <Select
          label={fieldLabel(t, 'completionMailRecipients')}
          description={fieldHelp(t, 'completionMailRecipients')}
          data={COMPLETION_MAIL_RECIPIENTS.map((value) => ({ value, label: t(`settings.options.completionMailRecipients.${value}`) }))}
          value={settings.completionMailRecipients}
          allowDeselect={false}
          maw={420}
          onChange={(value) => value && props.set('completionMailRecipients', value as TenantSettingsInForce['completionMailRecipients'])}
          error={props.errors['settings.completionMailRecipients']}
        />
        <NumberInput
          label={fieldLabel(t, 'completedLinkDays')}
          description={fieldHelp(t, 'completedLinkDays')}
          value={settings.completedLinkDays}
          min={1}
          max={365}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="strict"
          maw={320}
          onChange={(value) => props.set('completedLinkDays', typeof value === 'number' ? value : 1)}
          error={props.errors['settings.completedLinkDays']}
        />
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
        <SettingSwitch name="refuseDoubtfulSignatures" props={props} />
        <SettingSwitch name="publicRecordShowsNames" props={props} />
        <SettingSwitch name="documentQrStamp" props={props} />
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
