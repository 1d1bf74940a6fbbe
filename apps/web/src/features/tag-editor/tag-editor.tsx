import { ActionIcon, Alert, Badge, Box, Button, Card, ColorSwatch, Grid, Group, Loader, NativeSelect, Stack, Tabs, Text, Title, UnstyledButton } from '@mantine/core';
import {
  displayToPage,
  flattenTags,
  getSignatureBlocks,
  isRubberStamp,
  pageToDisplay,
  ResponseCode,
  TAG_PROBLEM_KEYS,
  tagRect,
  tagTypeDefaults,
  updateSignatureBlocks,
  validateTagLayout,
  shownSize,
  policyRequiresReasonTag,
  reasonTagProblems,
  RUBBER_STAMP_SUB_TYPE,
  ZOOM_DEFAULTS,
  type EpakDetail,
  type PageGeometry,
  type RenderMode,
  type Rect,
  type SmartTagField,
  type Tag,
  type TagProblem,
  type TagType,
} from '@pakt/domain';
import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useLayoutEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { usePublicConfiguration } from '../../api/public-queries';
import { useSession } from '../../api/session-store';
import { useCan } from '../../api/access';
import { CopyIcon, PlusIcon, TrashIcon } from '../../ui/icons';
import { DocumentPages, type EpakDocument, type PagePoint } from './document-pages';
import { problemMessage } from './problem-message';
import { tagEditorQueryKeys } from './queries';
import { initialsOf, signerColour, tagColourRole, UNASSIGNED_COLOUR } from './signer-colours';
import { assignTo, signerOfTag, signersOf, type SignerOption } from './signers';
import { SmartTagsPicker } from './smart-tags-picker';
import {
  defaultTagSize,
  documentTags,
  hasUnsavedChanges,
  initialTagEditorState,
  nudgedPosition,
  rectAtDisplayPoint,
  selectedTag,
  tagEditorReducer,
  type ArmedTag,
  type DocumentTags,
} from './tag-editor-state';
import { TagBox } from './tag-box';
import { TagPalette } from './tag-palette';
import { TagProperties } from './tag-properties';
import { usePdfDocument } from './use-pdf-document';
import { clampZoom, fitToWidthZoom, stepZoom, zoomPercent, type ZoomLimits } from './zoom';

const MinusIcon = ({ size = 18 }: { readonly size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" aria-hidden="true" focusable="false">
    <path d="M5 12h14" />
  </svg>
);

const PasteIcon = ({ size = 18 }: { readonly size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <rect x="6" y="4" width="12" height="17" rx="2" />
    <path d="M9 4V3h6v1M9 10h6M9 14h6M9 18h3" />
  </svg>
);

const UndoIcon = ({ size = 18 }: { readonly size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d="M9 14 4 9l5-5" />
    <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
  </svg>
);

type ZoomMode = RenderMode | 'custom';

const ARROW_KEYS: Readonly<Record<string, readonly [number, number]>> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** Keys typed into a field of the properties panel are that field's, not the editor's shortcuts. */
function isTextEntry(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

const problemId = (problem: TagProblem) => `${problem.tagUuid}|${problem.messageKey}|${JSON.stringify(problem.params ?? {})}`;

function uniqueProblems(problems: readonly TagProblem[]): TagProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const id = problemId(problem);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** The problems a refused save (-6, -49) carries in data.problems, when it carries any. */
function serverProblems(error: unknown): TagProblem[] | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code !== ResponseCode.INVALID_INPUT.code && error.code !== ResponseCode.ESIGNATURE_REASON_TAG_NOT_SELECTED.code) return null;
  const raw = error.data?.['problems'];
  if (!Array.isArray(raw)) return null;
  const problems = raw.filter(
    (item): item is TagProblem =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { tagUuid?: unknown }).tagUuid === 'string' &&
      (TAG_PROBLEM_KEYS as readonly unknown[]).includes((item as { messageKey?: unknown }).messageKey),
  );
  return problems.length > 0 ? problems : null;
}

class SaveFailure extends Error {
  constructor(
    readonly document: EpakDocument,
    readonly failure: unknown,
  ) {
    super('saving the fields failed');
  }
}

/** Only a plain base64 PNG or JPEG goes into the box's CSS (anything else could escape url()). */
/** One empty page list, so an editor with no document has the same one every render (a memo's dependency). */
const NO_PAGES: readonly PageGeometry[] = [];

const IMAGE_DATA_URL = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]*={0,2}$/;

type SaveOutcome = { readonly kind: 'saved' } | { readonly kind: 'failed'; readonly message: string };

/**
 * The tag editor of /compose (issue 4): the custodian places form fields (tags) on the pages of
 * a draft ePak's documents for its signers, and saves them. Every edit goes through the domain
 * rules (tag-editor-state.ts); the layout is re-validated live with the ePak's policy and again
 * by the server on save.
 */
export function TagEditor({
  epak,
  onUnsavedChange,
}: {
  readonly epak: EpakDetail;
  /** Told whenever the editor starts or stops holding changes not yet saved (Send waits for a save). */
  readonly onUnsavedChange?: (unsaved: boolean) => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const tenantUuid = session?.tenantUuid;
  const queryClient = useQueryClient();
  const headingId = useId();
  const signers = useMemo(() => signersOf(epak), [epak]);
  const [state, dispatch] = useReducer(tagEditorReducer, initialTagEditorState);
  const [documentId, setDocumentId] = useState(epak.documents[0]?.documentId ?? '');
  const current = epak.documents.find((document) => document.documentId === documentId) ?? epak.documents[0];
  const [forKey, setForKey] = useState(signers[0]?.key ?? '');
  const forSigner = signers.find((signer) => signer.key === forKey) ?? signers[0];
  const [pickerOpened, setPickerOpened] = useState(false);
  // Choosing a tag on a page shows its properties; placing one keeps the palette in view.
  const [sideTab, setSideTab] = useState<'fields' | 'properties'>('fields');
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);

  // ---- tags of every document, loaded once each ----
  const blocks = useQueries({
    queries: epak.documents.map((document) => ({
      queryKey: tagEditorQueryKeys.tags(tenantUuid, epak.ePakId, document.documentId),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        callApi(getSignatureBlocks, { params: { ePakId: epak.ePakId, documentId: document.documentId } }, { signal, failures: 'caller' }),
    })),
  });
  const loadedFrom = useRef(new Map<string, unknown>());
  useEffect(() => {
    blocks.forEach((query, index) => {
      const document = epak.documents[index];
      if (!document || !query.data || loadedFrom.current.get(document.documentId) === query.data) return;
      loadedFrom.current.set(document.documentId, query.data);
      dispatch({ type: 'loaded', documentId: document.documentId, tags: query.data.tags });
    });
  });

  const anyUnsaved = Object.values(state.documents).some(hasUnsavedChanges);
  useEffect(() => {
    onUnsavedChange?.(anyUnsaved);
  }, [anyUnsaved, onUnsavedChange]);
  useEffect(() => {
    if (!anyUnsaved) return;
    // The browser shows its own wording; a page can only ask for the prompt.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [anyUnsaved]);

  useEffect(() => {
    if (!state.armed) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') dispatch({ type: 'arm', armed: null });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [state.armed]);

  // ---- save ----
  const save = useMutation({
    mutationFn: async (documents: TagEditorDocuments) => {
      for (const document of epak.documents) {
        const entry = documents[document.documentId];
        if (!entry || !hasUnsavedChanges(entry)) continue;
        const sent = entry.tags;
        let answer: { tags: Tag[] };
        try {
          answer = await callApi(
            updateSignatureBlocks,
            { params: { ePakId: epak.ePakId, documentId: document.documentId }, body: { tags: [...sent] } },
            { failures: 'caller' },
          );
        } catch (error) {
          throw new SaveFailure(document, error);
        }
        loadedFrom.current.set(document.documentId, answer);
        queryClient.setQueryData(tagEditorQueryKeys.tags(tenantUuid, epak.ePakId, document.documentId), answer);
        dispatch({ type: 'saved', documentId: document.documentId, sent, tags: answer.tags });
      }
    },
    onMutate: () => setOutcome(null),
    onSuccess: () => setOutcome({ kind: 'saved' }),
    onError: (failure) => {
      const cause = failure instanceof SaveFailure ? failure.failure : failure;
      const problems = serverProblems(cause);
      if (failure instanceof SaveFailure && problems) {
        dispatch({ type: 'serverRefused', documentId: failure.document.documentId, problems });
        setDocumentId(failure.document.documentId);
        return setOutcome({ kind: 'failed', message: t('tagEditor.serverRefused', { name: failure.document.name }) });
      }
      const unreachable = cause instanceof ApiError && cause.httpStatus === 0;
      setOutcome({ kind: 'failed', message: t(unreachable ? 'common.unreachable' : 'tagEditor.saveFailed') });
    },
  });

  // ---- zoom ----
  const configuration = usePublicConfiguration();
  const zoomConfig = configuration.data?.zoom;
  const limits: ZoomLimits = useMemo(
    () => ({ min: zoomConfig?.min ?? ZOOM_DEFAULTS.min, max: zoomConfig?.max ?? ZOOM_DEFAULTS.max, step: zoomConfig?.step ?? ZOOM_DEFAULTS.step }),
    [zoomConfig],
  );
  const [mode, setMode] = useState<ZoomMode | null>(null);
  const zoomMode: ZoomMode = mode ?? zoomConfig?.defaultRenderMode ?? 'fitToWidth';
  const [customZoom, setCustomZoom] = useState(1);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const pageElements = useRef(new Map<number, HTMLElement>());
  const [available, setAvailable] = useState(0);
  const pages: readonly PageGeometry[] = current?.pages ?? NO_PAGES;
  const zoom =
    zoomMode === 'fitToWidth' ? fitToWidthZoom(available, pages, limits) : zoomMode === 'actual' ? clampZoom(1, limits) : clampZoom(customZoom, limits);
  // Keep the same part of the document in view when the zoom changes.
  const previousZoom = useRef(zoom);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && previousZoom.current !== zoom) element.scrollTop *= zoom / previousZoom.current;
    previousZoom.current = zoom;
  }, [zoom]);
  const zoomBy = (direction: 1 | -1) => {
    const next = stepZoom(zoom, direction, limits);
    if (next === null) return;
    setCustomZoom(next);
    setMode('custom');
  };

  const pdf = usePdfDocument(epak.ePakId, current?.documentId ?? '');

  // ---- the current document's tags and their problems ----
  const doc: DocumentTags = documentTags(state, current?.documentId ?? '');
  const liveProblems = useMemo(
    // While editing a reason tag is not demanded yet: it is one more field to place, not a fault
    // of what is on the page. The server still applies the policy's rule on save (-49).
    () => validateTagLayout({ tags: doc.tags, pages, policy: epak.signingPolicy, reasonTagRequired: false }),
    [doc.tags, pages, epak.signingPolicy],
  );
  const problems = useMemo(() => uniqueProblems([...liveProblems, ...doc.serverProblems]), [liveProblems, doc.serverProblems]);
  // What sending will demand on top (-49): said ahead, as a reminder rather than a fault.
  const reasonsMissing = useMemo(
    () => (policyRequiresReasonTag(epak.signingPolicy) ? reasonTagProblems(doc.tags) : []),
    [doc.tags, epak.signingPolicy],
  );
  const problemsByTag = useMemo(() => {
    const map = new Map<string, TagProblem[]>();
    for (const problem of problems) map.set(problem.tagUuid, [...(map.get(problem.tagUuid) ?? []), problem]);
    return map;
  }, [problems]);
  // Grouped once per edit: a long document would otherwise filter every tag for every page.
  const tagsByPage = useMemo(() => {
    const map = new Map<number, Tag[]>();
    for (const tag of doc.tags) map.set(tag.pageNumber, [...(map.get(tag.pageNumber) ?? []), tag]);
    return map;
  }, [doc.tags]);
  const selected = state.selected?.documentId === current?.documentId ? selectedTag(state) : undefined;
  const typeName = (type: TagType) => t(`tagEditor.types.${type}`);
  // A rubber stamp is an image tag of its own kind (issue 8): named as what it is.
  const tagName = (tag: Pick<Tag, 'type' | 'subType'>) => (isRubberStamp(tag) ? t('rubberStamps.chooser.stampTag') : typeName(tag.type));
  const stampArmed = state.armed?.init?.subType === RUBBER_STAMP_SUB_TYPE;

  if (!current) return null;
  const currentIndex = epak.documents.indexOf(current);
  const currentQuery = blocks[currentIndex];
  const loaded = state.documents[current.documentId] !== undefined;

  // ---- edits ----
  const place = (type: TagType, init: ArmedTag['init'], point: PagePoint) => {
    const page = pages[point.pageNumber - 1];
    if (!page) return;
    const defaultSize = defaultTagSize(type, init?.subType);
    const size = { width: init?.blockWidth ?? defaultSize.width, height: init?.blockHeight ?? defaultSize.height };
    const rect = rectAtDisplayPoint(size, point, page, zoom);
    // Swapping the shown sides is exact; going through the zoom would leave rounding in the size.
    const frameSize = shownSize(size, page.rotate);
    const defaults = tagTypeDefaults(type);
    setOutcome(null);
    dispatch({
      type: 'place',
      documentId: current.documentId,
      pages,
      init: {
        category: defaults.category,
        tagFor: defaults.tagFor,
        ...(forSigner ? assignTo(forSigner) : {}),
        ...init,
        uuid: crypto.randomUUID(),
        type,
        pageNumber: point.pageNumber,
        positionX: rect.x,
        positionY: rect.y,
        // The page-frame sides of the size as shown (swapped on a page turned a quarter).
        blockWidth: frameSize.width,
        blockHeight: frameSize.height,
      },
    });
  };

  const moveEnd = (tag: Tag, corner: { x: number; y: number }, pointer: { x: number; y: number }) => {
    let target: { pageNumber: number; bounds: DOMRect } | null = null;
    for (const [pageNumber, element] of pageElements.current) {
      const bounds = element.getBoundingClientRect();
      if (pointer.x >= bounds.left && pointer.x <= bounds.right && pointer.y >= bounds.top && pointer.y <= bounds.bottom) target = { pageNumber, bounds };
    }
    // Dropped between pages: measured against its own page, where the rules refuse it.
    const own = pageElements.current.get(tag.pageNumber);
    if (!target && own) target = { pageNumber: tag.pageNumber, bounds: own.getBoundingClientRect() };
    const page = target ? pages[target.pageNumber - 1] : undefined;
    if (!target || !page) return;
    // The tag keeps the size it shows on its own page (moveTag swaps its sides onto a page turned
    // a quarter from it).
    const size = shownSize(tagRect(tag), pages[tag.pageNumber - 1]?.rotate ?? 0);
    const rect = rectAtDisplayPoint(size, { x: corner.x - target.bounds.left, y: corner.y - target.bounds.top }, page, zoom);
    dispatch({ type: 'move', documentId: current.documentId, uuid: tag.uuid, to: { pageNumber: target.pageNumber, x: rect.x, y: rect.y }, pages });
  };

  const resizeEnd = (tag: Tag, shown: Rect) => {
    const page = pages[tag.pageNumber - 1];
    if (!page) return;
    dispatch({ type: 'resize', documentId: current.documentId, uuid: tag.uuid, rect: displayToPage(shown, page, zoom), pages });
  };

  const paste = () => dispatch({ type: 'paste', documentId: current.documentId, pages, newUuid: () => crypto.randomUUID() });
  const remove = (tag: Tag) => dispatch({ type: 'delete', documentId: current.documentId, uuid: tag.uuid });

  const onTagKeyDown = (tag: Tag, event: KeyboardEvent<HTMLDivElement>) => {
    const arrow = ARROW_KEYS[event.key];
    if (arrow) {
      event.preventDefault();
      const page = pages[tag.pageNumber - 1];
      if (!page) return;
      const step = event.shiftKey ? 10 : 1;
      const to = nudgedPosition(tag, page, arrow[0] * step, arrow[1] * step);
      dispatch({ type: 'move', documentId: current.documentId, uuid: tag.uuid, to: { pageNumber: tag.pageNumber, ...to }, pages });
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      remove(tag);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      dispatch({ type: 'select', selection: { documentId: current.documentId, uuid: tag.uuid } });
    } else if (event.key === 'Escape') {
      dispatch({ type: 'select', selection: null });
    }
  };

  const onEditorKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || isTextEntry(event.target)) return;
    const key = event.key.toLowerCase();
    if (key === 'c' && selected) {
      event.preventDefault();
      dispatch({ type: 'copy', documentId: current.documentId, uuid: selected.uuid });
    } else if (key === 'v' && state.clipboard) {
      event.preventDefault();
      paste();
    } else if (key === 'z' && !event.shiftKey && doc.history.length > 0) {
      event.preventDefault();
      dispatch({ type: 'undo', documentId: current.documentId });
    }
  };

  const renderTags = (pageNumber: number, page: PageGeometry): ReactNode =>
    (tagsByPage.get(pageNumber) ?? []).map((tag) => {
      const signer = signerOfTag(signers, tag);
      const isSelected = selected?.uuid === tag.uuid;
      return (
        <TagBox
          key={tag.uuid}
          uuid={tag.uuid}
          shown={pageToDisplay(tagRect(tag), page, zoom)}
          label={t('tagEditor.tagLabel', { type: tagName(tag), signer: signer?.name ?? t('tagEditor.nobody'), page: pageNumber })}
          typeName={tagName(tag)}
          initials={signer ? initialsOf(signer.name) : ''}
          signerColour={signerColour(signers, signer)}
          colourRole={tagColourRole({ selected: isSelected, invalid: problemsByTag.has(tag.uuid), assigned: signer !== undefined })}
          selected={isSelected}
          thinBorder={tag.type === 'letterHead'}
          imageUrl={(tag.type === 'image' || tag.type === 'letterHead') && typeof tag.value === 'string' && IMAGE_DATA_URL.test(tag.value) ? tag.value : undefined}
          onSelect={() => {
            dispatch({ type: 'select', selection: { documentId: current.documentId, uuid: tag.uuid } });
            setSideTab('properties');
          }}
          onMoveEnd={(corner, pointer) => moveEnd(tag, corner, pointer)}
          onResizeEnd={(shown) => resizeEnd(tag, shown)}
          onKeyDown={(event) => onTagKeyDown(tag, event)}
        />
      );
    });

  const allTags = flattenTags(doc.tags);
  const canZoomOut = stepZoom(zoom, -1, limits) !== null;
  const canZoomIn = stepZoom(zoom, 1, limits) !== null;
  const refusal = state.refusal ? [...new Set(state.refusal.map((problem) => problemMessage(t, problem)))] : [];

  return (
    <Card withBorder p={{ base: 'xs', sm: 'md' }} component="section" aria-labelledby={headingId} onKeyDown={onEditorKeyDown}>
      <Stack gap="md">
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Title order={2} size="h4" id={headingId}>
              {t('tagEditor.title')}
            </Title>
            {anyUnsaved && (
              <Badge variant="light" color="yellow" tt="none">
                {t('tagEditor.unsaved')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {t('tagEditor.intro')}
          </Text>
        </Stack>

        {epak.documents.length > 1 && (
          <Tabs
            value={current.documentId}
            onChange={(value) => {
              if (!value) return;
              setDocumentId(value);
              dispatch({ type: 'select', selection: null });
            }}
          >
            <Tabs.List aria-label={t('tagEditor.documents')}>
              {epak.documents.map((document) => {
                const entry = state.documents[document.documentId];
                return (
                  <Tabs.Tab key={document.documentId} value={document.documentId} style={{ maxWidth: '100%' }}>
                    <Text component="span" size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {document.name}
                      {entry && hasUnsavedChanges(entry) ? ' •' : ''}
                    </Text>
                  </Tabs.Tab>
                );
              })}
            </Tabs.List>
          </Tabs>
        )}

        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 1, md: 2 }}>
            <Stack gap="sm">
              <Group gap="xs" justify="space-between" role="toolbar" aria-label={t('tagEditor.actions.label')}>
                <Group gap={4} role="group" aria-label={t('tagEditor.zoom.toolbar')} wrap="nowrap">
                  <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.out')} disabled={!canZoomOut} onClick={() => zoomBy(-1)}>
                    <MinusIcon />
                  </ActionIcon>
                  <Text size="sm" w={48} ta="center" aria-label={t('tagEditor.zoom.level')} data-testid="zoom-level">
                    {zoomPercent(zoom)}%
                  </Text>
                  <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.in')} disabled={!canZoomIn} onClick={() => zoomBy(1)}>
                    <PlusIcon size={18} />
                  </ActionIcon>
                  <Button variant={zoomMode === 'fitToWidth' ? 'light' : 'default'} size="compact-sm" aria-pressed={zoomMode === 'fitToWidth'} onClick={() => setMode('fitToWidth')}>
                    {t('tagEditor.zoom.fitToWidth')}
                  </Button>
                  <Button variant={zoomMode === 'actual' ? 'light' : 'default'} size="compact-sm" aria-pressed={zoomMode === 'actual'} onClick={() => setMode('actual')}>
                    {t('tagEditor.zoom.actual')}
                  </Button>
                </Group>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="default"
                    size="lg"
                    aria-label={t('tagEditor.actions.undo')}
                    title={t('tagEditor.actions.undo')}
                    disabled={doc.history.length === 0}
                    onClick={() => dispatch({ type: 'undo', documentId: current.documentId })}
                  >
                    <UndoIcon />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    size="lg"
                    aria-label={t('tagEditor.actions.copy')}
                    title={t('tagEditor.actions.copy')}
                    disabled={!selected}
                    onClick={() => selected && dispatch({ type: 'copy', documentId: current.documentId, uuid: selected.uuid })}
                  >
                    <CopyIcon size={18} />
                  </ActionIcon>
                  <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.actions.paste')} title={t('tagEditor.actions.paste')} disabled={!state.clipboard} onClick={paste}>
                    <PasteIcon />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    color="red"
                    size="lg"
                    aria-label={t('tagEditor.actions.delete')}
                    title={t('tagEditor.actions.delete')}
                    disabled={!selected}
                    onClick={() => selected && remove(selected)}
                  >
                    <TrashIcon size={18} />
                  </ActionIcon>
                  <Button size="compact-md" ml={4} loading={save.isPending} disabled={!anyUnsaved} onClick={() => save.mutate(state.documents)}>
                    {t('tagEditor.actions.save')}
                  </Button>
                </Group>
              </Group>

              {state.armed && (
                <Group gap="xs" justify="space-between" wrap="nowrap" role="status" bg="var(--mantine-color-indigo-light)" px="sm" py={6} style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
                  <Text size="sm">{t('tagEditor.palette.armed', { type: tagName({ type: state.armed.type, subType: state.armed.init?.subType }) })}</Text>
                  <Button size="compact-xs" variant="subtle" onClick={() => dispatch({ type: 'arm', armed: null })}>
                    {t('tagEditor.palette.cancel')}
                  </Button>
                </Group>
              )}
              {refusal.length > 0 && (
                <Alert color="red" variant="light" role="alert" withCloseButton closeButtonLabel={t('tagEditor.dismiss')} onClose={() => dispatch({ type: 'dismissRefusal' })}>
                  {refusal.map((text) => (
                    <Text key={text} size="sm">
                      {text}
                    </Text>
                  ))}
                </Alert>
              )}
              {outcome?.kind === 'failed' && (
                <Alert color="red" variant="light" role="alert">
                  {outcome.message}
                </Alert>
              )}
              {outcome?.kind === 'saved' && !anyUnsaved && (
                <Text size="sm" c="teal.8" role="status">
                  {t('tagEditor.saved')}
                </Text>
              )}
              {reasonsMissing.length > 0 && (
                <Alert color="yellow" variant="light" role="status" title={t('tagEditor.reasonsNeeded.title')}>
                  {t('tagEditor.reasonsNeeded.body', {
                    names: reasonsMissing
                      .map((problem) => {
                        const tag = allTags.find((candidate) => candidate.uuid === problem.tagUuid);
                        return (tag && signerOfTag(signers, tag)?.name) ?? tag?.userEmail ?? t('tagEditor.reasonsNeeded.unassigned');
                      })
                      .join(', '),
                  })}
                </Alert>
              )}
              {problems.length > 0 && (
                <ProblemList
                  problems={problems}
                  describe={(problem) => {
                    const tag = allTags.find((candidate) => candidate.uuid === problem.tagUuid);
                    return t('tagEditor.problems.item', {
                      page: tag?.pageNumber ?? '?',
                      type: tag ? typeName(tag.type) : '?',
                      message: problemMessage(t, problem),
                    });
                  }}
                  onPick={(problem) => {
                    if (doc.tags.some((tag) => tag.uuid === problem.tagUuid)) {
                      dispatch({ type: 'select', selection: { documentId: current.documentId, uuid: problem.tagUuid } });
                      setSideTab('properties');
                    }
                  }}
                />
              )}

              {!loaded ? (
                currentQuery?.isError ? (
                  <Alert color="red" variant="light" role="alert" title={t('tagEditor.loadFailed')}>
                    <Button variant="light" color="red" size="xs" onClick={() => void currentQuery.refetch()}>
                      {t('tagEditor.retry')}
                    </Button>
                  </Alert>
                ) : (
                  <Group gap="xs">
                    <Loader size="sm" />
                    <Text size="sm" c="dimmed">
                      {t('tagEditor.loading')}
                    </Text>
                  </Group>
                )
              ) : (
                <DocumentPages
                  key={current.documentId}
                  document={current}
                  pdf={pdf}
                  zoom={zoom}
                  scrollRef={scrollRef}
                  pageElements={pageElements}
                  armed={state.armed !== null}
                  height={'min(75vh, 1000px)'}
                  onAvailableWidth={setAvailable}
                  renderTags={renderTags}
                  onPageClick={(point) => {
                    if (state.armed) place(state.armed.type, state.armed.init, point);
                    else dispatch({ type: 'select', selection: null });
                  }}
                  onPageDrop={(point, type) => place(type, undefined, point)}
                />
              )}
            </Stack>
          </Grid.Col>

          <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 2, md: 1 }}>
            {/* Two tabs rather than one long column: the palette and a tag's properties are each
                as tall as the pages beside them, and one of them is what the custodian is using. */}
            <Tabs value={sideTab} onChange={(value) => setSideTab(value === 'properties' ? 'properties' : 'fields')} keepMounted={false}>
              <Tabs.List grow mb="sm">
                <Tabs.Tab value="fields">{t('tagEditor.palette.heading')}</Tabs.Tab>
                <Tabs.Tab value="properties">{t('tagEditor.propertiesTab')}</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="fields">
                <Stack gap="md">
                  <Stack gap={6}>
                    {signers.length > 0 ? (
                      <NativeSelect
                        label={t('tagEditor.for')}
                        description={t('tagEditor.forHint')}
                        data={signers.map((signer) => ({ value: signer.key, label: `${signer.name} (${signer.stepName})` }))}
                        value={forSigner?.key ?? ''}
                        onChange={(event) => setForKey(event.currentTarget.value)}
                      />
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('tagEditor.noSigners')}
                      </Text>
                    )}
                    <Legend signers={signers} />
                  </Stack>
                  <TagPalette armed={stampArmed ? null : (state.armed?.type ?? null)} onArm={(type) => dispatch({ type: 'arm', armed: type ? { type } : null })} />
                  <RubberStampTagButton armed={stampArmed} onArm={(on) => dispatch({ type: 'arm', armed: on ? { type: 'image', init: { subType: RUBBER_STAMP_SUB_TYPE } } : null })} />
                  <Button variant="default" size="xs" onClick={() => setPickerOpened(true)}>
                    {t('tagEditor.actions.smartTags')}
                  </Button>
                </Stack>
              </Tabs.Panel>
              <Tabs.Panel value="properties">
                {selected ? (
                  <TagProperties
                    tag={selected}
                    page={pages[selected.pageNumber - 1] ?? pages[0]!}
                    signers={signers}
                    onChange={(next: Tag) => dispatch({ type: 'update', documentId: current.documentId, tag: next })}
                    onDelete={() => remove(selected)}
                  />
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('tagEditor.selectHint')}
                  </Text>
                )}
              </Tabs.Panel>
            </Tabs>
          </Grid.Col>
        </Grid>
      </Stack>
      <SmartTagsPicker
        opened={pickerOpened}
        onClose={() => setPickerOpened(false)}
        onPick={(field: SmartTagField) => {
          setPickerOpened(false);
          setSideTab('fields');
          dispatch({ type: 'arm', armed: { type: field.type, init: { key: field.key, category: 'nonPrinted', name: field.key } } });
        }}
      />
    </Card>
  );
}

type TagEditorDocuments = Readonly<Record<string, DocumentTags>>;

function Legend({ signers }: { readonly signers: readonly SignerOption[] }) {
  const { t } = useTranslation();
  const id = useId();
  const items: { key: string; colour: string; label: string }[] = [
    ...signers.map((signer) => ({ key: signer.key, colour: `var(--mantine-color-${signerColour(signers, signer)}-6)`, label: signer.name })),
    { key: 'selected', colour: 'var(--mantine-primary-color-filled)', label: t('tagEditor.colours.selected') },
    { key: 'invalid', colour: 'var(--mantine-color-red-7)', label: t('tagEditor.colours.invalid') },
    { key: 'remaining', colour: `var(--mantine-color-${UNASSIGNED_COLOUR}-6)`, label: t('tagEditor.colours.remaining') },
  ];
  return (
    <Box>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" id={id}>
        {t('tagEditor.legend')}
      </Text>
      <Group component="ul" gap="xs" m={0} p={0} mt={4} style={{ listStyle: 'none' }} aria-labelledby={id}>
        {items.map((item) => (
          <Group component="li" key={item.key} gap={4} wrap="nowrap">
            <ColorSwatch color={item.colour} size={12} withShadow={false} />
            <Text size="xs">{item.label}</Text>
          </Group>
        ))}
      </Group>
    </Box>
  );
}

function ProblemList({
  problems,
  describe,
  onPick,
}: {
  readonly problems: readonly TagProblem[];
  readonly describe: (problem: TagProblem) => string;
  readonly onPick: (problem: TagProblem) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Box p="xs" style={{ border: '1px solid var(--mantine-color-red-3)', borderRadius: 'var(--mantine-radius-sm)', background: 'var(--mantine-color-red-0)' }}>
      <Text size="sm" fw={600} c="red.9" id={id}>
        {t('tagEditor.problems.heading', { count: problems.length })}
      </Text>
      <Stack component="ul" gap={2} m={0} p={0} mt={4} mah={120} style={{ listStyle: 'none', overflowY: 'auto' }} aria-labelledby={id}>
        {problems.map((problem) => (
          <li key={problemId(problem)}>
            <UnstyledButton onClick={() => onPick(problem)} fz="sm" c="red.9" style={{ textAlign: 'start', textDecoration: 'underline dotted' }}>
              {describe(problem)}
            </UnstyledButton>
          </li>
        ))}
      </Stack>
    </Box>
  );
}

/**
 * The rubber-stamp field (issue 8), offered while the tenant has rubber stamps on; the signer
 * fills it with one of their stamps when they sign. A component of its own so that the tenant's
 * settings arriving re-render this button only, not every page of the editor.
 */
function RubberStampTagButton({ armed, onArm }: { readonly armed: boolean; readonly onArm: (on: boolean) => void }) {
  const { t } = useTranslation();
  if (!useCan('rubberStamp.manage')) return null;
  return (
    <Button variant={armed ? 'filled' : 'light'} size="compact-sm" aria-pressed={armed} justify="flex-start" onClick={() => onArm(!armed)}>
      {t('rubberStamps.chooser.stampTag')}
    </Button>
  );
}
