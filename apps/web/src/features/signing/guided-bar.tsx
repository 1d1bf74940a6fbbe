import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CeremonyState } from './use-ceremony';
import { verificationPending } from '../../api/recipient-verification';
import { showVerificationPanel } from '../../ui/verification-panel';

/**
 * The phone's guided mode (issue 22): a bar held to the bottom of the screen, one field at a
 * time. "Field 2 of 5: Signature", Previous and Next (which scroll to the field and open it), and
 * once every required field is filled, Finish, which signs as the panel's Sign button does.
 */
export function GuidedBar({ ceremony }: { readonly ceremony: CeremonyState }) {
  const { t } = useTranslation();
  const { guide, actions, viewer } = ceremony;
  const current = guide.current;
  const count = guide.fields.length;
  const done = guide.requiredLeft === 0;
  // As the panel's Sign: while a code waits to be confirmed (signer verification), Finish leads to it.
  const finish = verificationPending(viewer.verification) ? showVerificationPanel : actions.trySign;
  const where = current
    ? t(current.required ? 'signing.guide.positionRequired' : 'signing.guide.position', { number: guide.position + 1, count, field: t(`tagEditor.types.${current.tag.type}`) })
    : count === 0
      ? t('signing.guide.noFields')
      : done
        ? t('signing.guide.allFilled')
        : t('signing.guide.toFill', { count: guide.requiredLeft });
  return (
    <Box
      role="group"
      aria-label={t('signing.guide.label')}
      data-testid="guided-bar"
      p="sm"
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 20,
        background: 'var(--mantine-color-body)',
        borderTop: '1px solid var(--mantine-color-default-border)',
        boxShadow: '0 -2px 8px rgba(0, 0, 0, 0.08)',
      }}
    >
      <Stack gap={8}>
        <Text size="sm" fw={600} data-testid="guided-position" style={{ overflowWrap: 'anywhere' }}>
          {where}
        </Text>
        <Group gap="xs" grow wrap="nowrap">
          {count > 0 && (
            <Button variant="default" onClick={guide.previous} disabled={!guide.hasPrevious} data-testid="guided-previous">
              {t('signing.guide.previous')}
            </Button>
          )}
          {count > 0 && (!done || guide.hasNext) && (
            <Button variant={done ? 'default' : 'filled'} onClick={guide.next} disabled={!guide.hasNext} data-testid="guided-next">
              {t(guide.position < 0 && !done ? 'signing.guide.start' : 'signing.guide.next')}
            </Button>
          )}
        </Group>
        {/* A row of its own: beside Previous and Next, "Finish and sign" was cut to "Finish and" at 390 px. */}
        {done && (
          <Button fullWidth onClick={finish} disabled={!viewer.eligibleForAction || actions.review.isPending} loading={actions.sign.isPending} data-testid="guided-finish">
            {t('signing.guide.finish')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
