import { ActionIcon, Alert, Box, Button, Group, Stack, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon, PlusIcon } from '../../ui/icons';
import { SignatureStateNote } from '../../ui/signature-state-note';
import { DocumentPages, stepZoom, zoomPercent, type EpakDocument } from '../tag-editor';
import { CeremonyPageTags } from './ceremony-page-tags';
import type { CeremonyState } from './use-ceremony';
import { usePinchZoom } from './use-pinch-zoom';

const MinusIcon = ({ size = 18 }: { readonly size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" aria-hidden="true" focusable="false">
    <path d="M5 12h14" />
  </svg>
);

/**
 * The ceremony's reading column: the documents' tabs, the zoom, and the pages with their tags. On
 * a phone (issue 22) the pages fit the screen's width and scroll with the page, with no box
 * scrolling inside it; two fingers zoom them within the configured limits.
 */
export function CeremonyDocument({ ceremony, current }: { readonly ceremony: CeremonyState; readonly current: EpakDocument }) {
  const { t } = useTranslation();
  const { epak, progress, view, tags, phone } = ceremony;
  const query = tags.queryOf(current.documentId);
  const [pinchArea, setPinchArea] = useState<HTMLDivElement | null>(null);
  usePinchZoom(pinchArea, view, phone);
  return (
    <Stack gap="sm">
      {epak.documents.length > 1 && (
        <Tabs value={current.documentId} onChange={(value) => {
            if (value) view.show(value);
          }}>
          <Tabs.List aria-label={t('signing.documents')}>
            {progress.map((entry) => (
              <Tabs.Tab key={entry.document.documentId} value={entry.document.documentId} style={{ maxWidth: '100%' }} rightSection={entry.signed ? <CheckIcon size={14} /> : undefined}>
                <Text component="span" size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {entry.document.name}
                </Text>
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      )}
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          {current.name}
        </Text>
        <ZoomToolbar ceremony={ceremony} />
      </Group>
      <SignatureStateNote state={current.signatureState} />
      {query?.isError ? (
        <Alert color="red" variant="light" role="alert" title={t('signing.tagsFailed')}>
          <Button variant="light" color="red" size="xs" onClick={() => void query.refetch()}>
            {t('signing.retry')}
          </Button>
        </Alert>
      ) : (
        // Which revision is on screen, for whoever needs to wait for the signed one (e2e).
        <Box
          ref={setPinchArea}
          data-testid="signing-document"
          data-revisions={current.revisions}
          data-shown-revisions={view.shownRevisions ?? undefined}
          data-zoom={view.zoom}
          data-fits-width={view.fitsWidth || undefined}
          // One finger scrolls as ever; two are the pinch above, not the browser's page zoom.
          style={{ touchAction: 'pan-x pan-y' }}
        >
          <DocumentPages
            key={current.documentId}
            document={current}
            pdf={view.pdf}
            pictureOf={view.pictureOf}
            zoom={view.zoom}
            scrollRef={view.scrollRef}
            pageElements={view.pageElements}
            armed={false}
            height={{ base: '70vh', md: 'min(78vh, 1100px)' }}
            scrollsWithPage={phone}
            onAvailableWidth={view.setAvailable}
            renderTags={(pageNumber, page) => <CeremonyPageTags ceremony={ceremony} document={current} pageNumber={pageNumber} page={page} />}
            onPageClick={() => view.setOpenTag(null)}
            onPageDrop={() => undefined}
          />
        </Box>
      )}
    </Stack>
  );
}

function ZoomToolbar({ ceremony: { view } }: { readonly ceremony: CeremonyState }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} role="group" aria-label={t('tagEditor.zoom.toolbar')} wrap="nowrap">
      <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.out')} data-testid="zoom-out" disabled={stepZoom(view.zoom, -1, view.limits) === null} onClick={() => view.zoomBy(-1)}>
        <MinusIcon />
      </ActionIcon>
      <Text size="sm" w={48} ta="center">
        <VisuallyHidden>{t('tagEditor.zoom.level')} </VisuallyHidden>
        <span data-testid="zoom-level">{zoomPercent(view.zoom)}%</span>
      </Text>
      <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.in')} data-testid="zoom-in" disabled={stepZoom(view.zoom, 1, view.limits) === null} onClick={() => view.zoomBy(1)}>
        <PlusIcon size={18} />
      </ActionIcon>
      {/* A mode, not a zoom value: pressed, the pages fit whatever width there is, now and after a resize. */}
      <Button variant={view.fitsWidth ? 'light' : 'default'} size="xs" aria-pressed={view.fitsWidth} data-testid="zoom-fit" onClick={view.fitToWidth}>
        {t('tagEditor.zoom.fitToWidth')}
      </Button>
    </Group>
  );
}
