import { Alert, Box, Button, Group, Radio, Skeleton, Stack, Text } from '@mantine/core';
import { downloadCeremonyRubberStampImage, type Rect, type RubberStampChoice } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useObjectUrl } from '../../api/profile';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { SidePanel } from '../../ui/side-panel';
import { useSigningApi } from '../../api/signing-api';

/**
 * The rubber-stamp chooser of the signing ceremony (issue 8, spec §2 and §6): offered only when
 * the ePak's viewer says stamps are available to this signer (the tenant's flag and their
 * passcode flag). The signer picks one of their stamps and applies it to the document shown;
 * the ceremony sends it with that document's signature, and the server checks it all again.
 */

/** A stamp's image through the ePak, so a signing-link session reaches it as well. */
export function useCeremonyStampImage(ePakId: string, rubberStampId: string) {
  const { callApi, scope } = useSigningApi();
  const image = useQuery({
    queryKey: [...signingQueryKeys.all(scope, ePakId), 'rubberStamp', rubberStampId],
    queryFn: ({ signal }) => callApi(downloadCeremonyRubberStampImage, { params: { ePakId, rubberStampId } }, { signal, failures: 'caller' }),
    staleTime: Infinity,
    retry: false,
  });
  return { url: useObjectUrl(image.data), pending: image.isPending };
}

function Thumbnail({ ePakId, stamp }: { readonly ePakId: string; readonly stamp: RubberStampChoice }) {
  const { t } = useTranslation();
  const { url, pending } = useCeremonyStampImage(ePakId, stamp.rubberStampId);
  if (!url) return <Skeleton w={48} h={48} animate={pending} radius="sm" />;
  return <img src={url} alt={t('rubberStamps.imageAlt', { name: stamp.name })} width={48} height={48} style={{ objectFit: 'contain', background: 'white', borderRadius: 4, flexShrink: 0 }} />;
}

export interface StampChooserProps {
  readonly ePakId: string;
  readonly stamps: readonly RubberStampChoice[];
  /** The stamp applied to the document shown, and its page; null when none is. */
  readonly applied: { readonly rubberStampId: string; readonly pageNumber: number } | null;
  /** How many of the ePak's documents carry a stamp to be signed with, and how many there are. */
  readonly appliedCount: number;
  readonly documentCount: number;
  /** The document shown is signed already (nothing more goes on it), or signing is under way. */
  readonly disabled: boolean;
  readonly onApply: (stamp: RubberStampChoice) => void;
  readonly onRemove: () => void;
}

export function StampChooser({ ePakId, stamps, applied, appliedCount, documentCount, disabled, onApply, onRemove }: StampChooserProps) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string | null>(applied?.rubberStampId ?? stamps[0]?.rubberStampId ?? null);
  const stamp = stamps.find((candidate) => candidate.rubberStampId === chosen) ?? null;
  return (
    <SidePanel title={t('rubberStamps.chooser.title')} intro={t('rubberStamps.chooser.intro')} testId="stamp-chooser">
      <Radio.Group value={chosen} onChange={setChosen} label={t('rubberStamps.chooser.choose')}>
        <Stack gap={6} mt={4}>
          {stamps.map((choice) => (
            <Radio.Card key={choice.rubberStampId} value={choice.rubberStampId} p={6} radius="sm" aria-label={choice.name} disabled={disabled}>
              <Group gap="sm" wrap="nowrap">
                <Radio.Indicator />
                <Thumbnail ePakId={ePakId} stamp={choice} />
                <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  {choice.name}
                </Text>
              </Group>
            </Radio.Card>
          ))}
        </Stack>
      </Radio.Group>
      {applied && (
        <Alert color="teal" variant="light" p="xs" data-testid="stamp-applied">
          {t('rubberStamps.chooser.appliedHere', { page: applied.pageNumber })}
        </Alert>
      )}
      {documentCount > 1 && appliedCount > 0 && (
        <Text size="xs" c="dimmed">
          {t('rubberStamps.chooser.appliedCount', { count: appliedCount })}
        </Text>
      )}
      <Group gap="xs" wrap="wrap">
        <Button size="xs" variant="light" disabled={disabled || !stamp || applied?.rubberStampId === stamp.rubberStampId} onClick={() => stamp && onApply(stamp)}>
          {t('rubberStamps.chooser.apply')}
        </Button>
        {applied && (
          <Button size="xs" variant="subtle" color="red" disabled={disabled} onClick={onRemove}>
            {t('rubberStamps.chooser.remove')}
          </Button>
        )}
      </Group>
    </SidePanel>
  );
}

/** The applied stamp over its page, where the server will draw it (shown, not yet sealed). */
export function AppliedStamp({ ePakId, rubberStampId, shown }: { readonly ePakId: string; readonly rubberStampId: string; readonly shown: Rect }) {
  const { url } = useCeremonyStampImage(ePakId, rubberStampId);
  return (
    <Box
      data-testid="applied-stamp"
      style={{
        position: 'absolute',
        left: shown.x,
        top: shown.y,
        width: shown.width,
        height: shown.height,
        outline: '1px dashed var(--mantine-color-teal-6)',
        pointerEvents: 'none',
        zIndex: 2,
      }}
    >
      {url && <img src={url} alt="" style={{ width: '100%', height: '100%', objectFit: 'contain' }} />}
    </Box>
  );
}
