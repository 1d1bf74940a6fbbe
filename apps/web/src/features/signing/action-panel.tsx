import { Alert, Badge, Box, Button, Group, Progress, Stack, Switch, Text } from '@mantine/core';
import type { EpakStatus, SigningReason, WorkflowStateType } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { CheckIcon } from '../../ui/icons';
import { LocationField, type LocationFieldProps } from './location-field';
import { ReasonPicker, type ReasonState } from './reason-picker';
import { SignerNameField, type SignerNameFieldProps } from './signer-name-field';
import { SidePanel } from '../../ui/side-panel';

/** What the person did, and whether where everyone stands has been fetched again since. */
export interface Outcome {
  readonly kind: 'signed' | 'reviewed' | 'rejected';
  readonly epakStatus: EpakStatus | null;
  /** The person's step when they acted: the ePak has moved on once its current step differs. */
  readonly stepOrder: number | null;
  readonly settled: boolean;
}

export interface DocumentProgress {
  readonly documentId: string;
  readonly name: string;
  readonly signed: boolean;
  readonly loaded: boolean;
  readonly filled: number;
  readonly total: number;
}

export interface ActionPanelProps {
  readonly stepType: WorkflowStateType | null;
  /** View enforcement (spec §5): false until every document has been opened. */
  readonly eligible: boolean;
  readonly openedCount: number;
  readonly documentCount: number;
  readonly progress: readonly DocumentProgress[];
  readonly reason: ReasonState;
  readonly onReasonChange: (reason: ReasonState) => void;
  /** The tenant's enabled signing reasons, the default first (viewer.reasons). */
  readonly reasons: readonly SigningReason[];
  /** "Your full name", for a signer the ePak knows only by address (viewer.nameRequired, issue 22); null hides it. */
  readonly signerName?: SignerNameFieldProps | null;
  /** "Where are you signing?", when the tenant asks (viewer.geolocation) and no location field of theirs does; null hides it. */
  readonly location: LocationFieldProps | null;
  /** The auto-fill toggle, offered when the person has several signature blocks; null hides it. */
  readonly autoFill: boolean | null;
  readonly onAutoFillChange: (on: boolean) => void;
  readonly onNextField: (() => void) | null;
  readonly hasSignature: boolean;
  readonly onChangeSignature: () => void;
  readonly error: string | null;
  /** The document being signed, while the sign loop runs. */
  readonly signing: { readonly index: number; readonly count: number } | null;
  readonly signPending: boolean;
  readonly reviewPending: boolean;
  readonly onSign: () => void;
  readonly onReview: () => void;
  readonly onReject: () => void;
}

/**
 * What the person can do now: their progress through the required fields of each document, the
 * reason for signing, where they sign when their tenant asks, and Sign (or Mark as reviewed for
 * a review step) and Reject.
 */
export function ActionPanel(props: ActionPanelProps) {
  const { t } = useTranslation();
  const reviewing = props.stepType === 'REVIEW';
  const busy = props.signPending || props.reviewPending;
  const disabled = !props.eligible || busy;
  const withFields = props.progress.filter((entry) => entry.total > 0);
  const filled = withFields.reduce((sum, entry) => sum + entry.filled, 0);
  const total = withFields.reduce((sum, entry) => sum + entry.total, 0);

  return (
    <SidePanel title={t(reviewing ? 'signing.panel.reviewHeading' : 'signing.panel.signHeading')} intro={t(reviewing ? 'signing.panel.reviewIntro' : 'signing.panel.signIntro')} gap="md">

      {!reviewing && props.signerName && <SignerNameField {...props.signerName} />}

      {!reviewing && (
        <Stack gap={6} data-testid="signing-progress">
          {total > 0 && <Progress value={(filled / total) * 100} color={filled === total ? 'teal' : 'yellow'} size="sm" aria-label={t('signing.progress.overall', { filled, total })} />}
          <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {props.progress.map((entry) => (
              <Group component="li" key={entry.documentId} gap="xs" justify="space-between" wrap="nowrap" py={2}>
                <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  {entry.name}
                </Text>
                {entry.signed ? (
                  <Badge size="sm" variant="light" color="teal" tt="none" leftSection={<CheckIcon size={12} />} style={{ flexShrink: 0 }}>
                    {t('signing.progress.signed')}
                  </Badge>
                ) : !entry.loaded ? (
                  <Text size="xs" c="dimmed">
                    …
                  </Text>
                ) : (
                  <Text size="xs" c={entry.total === 0 || entry.filled === entry.total ? 'teal' : 'orange'} style={{ flexShrink: 0 }} data-testid="document-progress">
                    {entry.total === 0 ? t('signing.progress.noRequired') : t('signing.progress.filled', { filled: entry.filled, total: entry.total })}
                  </Text>
                )}
              </Group>
            ))}
          </Box>
          {props.onNextField && (
            <Button variant="light" size="xs" w="fit-content" onClick={props.onNextField} data-testid="next-field">
              {t('signing.progress.next')}
            </Button>
          )}
        </Stack>
      )}

      {!reviewing && <ReasonPicker value={props.reason} onChange={props.onReasonChange} reasons={props.reasons} />}

      {!reviewing && props.location && <LocationField {...props.location} />}

      {!reviewing && (props.hasSignature || props.autoFill !== null) && (
        <Stack gap={6}>
          {props.autoFill !== null && (
            <Switch checked={props.autoFill} onChange={(event) => props.onAutoFillChange(event.currentTarget.checked)} label={t('signing.autoFill.toggle')} description={t('signing.autoFill.toggleHint')} />
          )}
          {props.hasSignature && (
            <Button variant="subtle" size="compact-sm" w="fit-content" onClick={props.onChangeSignature}>
              {t('signing.fields.changeSignature')}
            </Button>
          )}
        </Stack>
      )}

      {props.error && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {props.error}
        </Alert>
      )}

      <Stack gap={6}>
        {!props.eligible && (
          <Text size="sm" c="orange" data-testid="view-enforcement">
            {t('signing.viewEnforced', { opened: props.openedCount, count: props.documentCount })}
          </Text>
        )}
        {/* Not two equal halves: "Mark as reviewed" was clipped to "Mark as revie" at 1280 px. The
            main action takes the room its label needs, rejecting what is left, on two rows if need be. */}
        <Group gap="sm" data-testid="ceremony-actions">
          {reviewing ? (
            <Button onClick={props.onReview} disabled={disabled} loading={props.reviewPending} style={{ flex: '1 0 auto' }}>
              {t('signing.actions.review')}
            </Button>
          ) : (
            <Button onClick={props.onSign} disabled={disabled} loading={props.signPending} style={{ flex: '1 0 auto' }}>
              {t('signing.actions.sign')}
            </Button>
          )}
          <Button variant="outline" color="red" onClick={props.onReject} disabled={disabled} style={{ flex: '1 0 auto' }}>
            {t('signing.actions.reject')}
          </Button>
        </Group>
        {props.signing && props.signing.count > 1 && (
          <Text size="xs" c="dimmed" role="status">
            {t('signing.actions.signingDocument', { number: props.signing.index + 1, count: props.signing.count })}
          </Text>
        )}
      </Stack>
    </SidePanel>
  );
}
