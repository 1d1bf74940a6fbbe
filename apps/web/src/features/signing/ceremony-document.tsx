import { ActionIcon, Alert, Box, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CheckIcon, PlusIcon } from '../../ui/icons';
import { SignatureStateNote } from '../../ui/signature-state-note';
import { DocumentPages, stepZoom, zoomPercent, type EpakDocument } from '../tag-editor';
import { CeremonyPageTags } from './ceremony-page-tags';
import type { CeremonyState } from './use-ceremony';

const MinusIcon = ({ size = 18 }: { readonly size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" aria-hidden="true" focusable="false">
    <path d="M5 12h14" />
  </svg>
);

/** The ceremony's reading column: the documents' tabs, the zoom, and the pages with their tags. */
export function CeremonyDocument({ ceremony, current }: { readonly ceremony: CeremonyState; readonly current: EpakDocument }) {
  const { t } = useTranslation();
  const { epak, progress, view, tags } = ceremony;
  const query = tags.queryOf(current.documentId);
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
        <Box data-testid="signing-document" data-revisions={current.revisions} data-shown-revisions={view.shownRevisions ?? undefined}>
          <DocumentPages
            key={current.documentId}
            document={current}
            pdf={view.pdf}
            zoom={view.zoom}
            scrollRef={view.scrollRef}
            pageElements={view.pageElements}
            armed={false}
            height={{ base: '70vh', md: 'min(78vh, 1100px)' }}
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
      <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.out')} disabled={stepZoom(view.zoom, -1, view.limits) === null} onClick={() => view.zoomBy(-1)}>
        <MinusIcon />
      </ActionIcon>
      <Text size="sm" w={48} ta="center" aria-label={t('tagEditor.zoom.level')}>
        {zoomPercent(view.zoom)}%
      </Text>
      <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.in')} disabled={stepZoom(view.zoom, 1, view.limits) === null} onClick={() => view.zoomBy(1)}>
        <PlusIcon size={18} />
      </ActionIcon>
      <Button variant={view.fitsWidth ? 'light' : 'default'} size="compact-sm" aria-pressed={view.fitsWidth} onClick={view.fitToWidth}>
        {t('tagEditor.zoom.fitToWidth')}
      </Button>
    </Group>
  );
}
