import { ActionIcon, Alert, Box, Button, Center, Grid, Group, Loader, Modal, Stack, Tabs, Text } from '@mantine/core';
import { actOnEpakDocument, attachToTag, getEpak, getSignatureBlocks, pageToDisplay, rejectEpak, setEpakStatus, signEpakDocument, tagRect, ZOOM_DEFAULTS, type EpakDetail, type EpakRecipient, type PageGeometry, type Rect, type RubberStampChoice, type RubberStampUse, type SignDocumentResult, type Tag, type TagValue, displayName, fullName, isTagFor, isGroupTag, isFilledValue, isRequiredTag } from '@pakt/domain';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { usePublicConfiguration } from '../../api/public-queries';
import { DocumentPages, type EpakDocument, clampZoom, fitToWidthZoom, stepZoom, zoomPercent, type ZoomLimits } from '../tag-editor';
import { CheckIcon, PlusIcon } from '../../ui/icons';
import { ActionPanel, type Outcome } from './action-panel';
import { EpakDownloadButton } from './epak-download';
import { EpakHeading, EpakSteps } from './epak-summary';
import { InPersonPanel, pendingInPersonSigners } from './in-person-panel';
import { NO_REASON, reasonText, type ReasonState } from './reason-picker';
import { RejectDialog } from './reject-dialog';
import { actionErrorMessage, refusedLocation, refusedTagUuids, staleAfter, whyCannotAct } from './sign-errors';
import { SignatureDialog, type MarkKind } from './signature-dialog';
import { renderTypedSignature } from './signature-image';
import { useSigningApi } from './signing-api';
import { signingQueryKeys } from './queries';
import { SigningTag, type TagPresentation } from './signing-tag';
import {
  autoFillTargets,
  CLICK_FILLED_KINDS,
  fillableTags,
  initialsOf,
  isCompositeComplete,
  isEditable,
  NO_VIEWER,
  ownComposites,
  requiredProgress,
  valueKindOf,
  valueOf,
  valuesToSend,
  type EditContext,
  type Signer,
  type Values,
} from './signing-tags';
import { TagFieldEditor } from './tag-field-editor';
import { useSigningPdf } from './use-signing-pdf';
import { stampUseFor } from '../rubber-stamps';
import { AppliedStamp, StampChooser } from './stamp-chooser';

const MinusIcon = ({ size = 18 }: { readonly size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" aria-hidden="true" focusable="false">
    <path d="M5 12h14" />
  </svg>
);

/** Who is at the screen, as their session knows them (the ePak's recipient list may know better). */
export interface CeremonyPerson {
  readonly email: string;
  readonly name: string;
}

/**
 * The signing ceremony (issue 5): a recipient of a started ePak reads its documents, fills their
 * own fields, and signs, marks it reviewed or rejects it. The same screen serves /sign (a
 * signed-in recipient) and /emailsign (a signing link); the page provides the session.
 */
export interface SigningCeremonyProps {
  readonly ePakId: string;
  readonly person: CeremonyPerson;
  /** Offered to the owner while an in-person step waits: the host calls that signer up (in-person.tsx). */
  readonly onSignInPerson?: (recipient: EpakRecipient) => void;
  /** Told once the person's action is done and where everyone stands has been fetched again. */
  readonly onSettled?: (outcome: Outcome) => void;
  /** The Download button (GET …/download); off for a signer's turn on someone else's device. */
  readonly withDownload?: boolean;
}

export function SigningCeremony({ ePakId, person, onSignInPerson, onSettled, withDownload = true }: SigningCeremonyProps) {
  const { t } = useTranslation();
  const { callApi, scope } = useSigningApi();
  const epak = useQuery({
    queryKey: signingQueryKeys.epak(scope, ePakId),
    queryFn: ({ signal }) => callApi(getEpak, { params: { ePakId } }, { signal, failures: 'caller' }),
  });
  if (epak.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={t('signing.loading')} />
      </Center>
    );
  }
  if (epak.isError) {
    const missing = epak.error instanceof ApiError && epak.error.httpStatus === 404;
    return (
      <Alert color={missing ? 'gray' : 'red'} variant="light" role="alert" title={t(missing ? 'signing.notFound.title' : 'signing.loadFailed')}>
        <Stack gap="xs">
          <Text size="sm">{missing ? t('signing.notFound.body') : actionErrorMessage(t, epak.error)}</Text>
          {!missing && (
            <Button size="xs" variant="light" w="fit-content" onClick={() => void epak.refetch()}>
              {t('signing.retry')}
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }
  return <Ceremony epak={epak.data} person={person} onSignInPerson={onSignInPerson} onSettled={onSettled} withDownload={withDownload} />;
}

type DocumentValues = Readonly<Record<string, Values>>;

interface MarkRequest {
  readonly kind: MarkKind;
  readonly then: (image: string) => void;
}

function Ceremony({
  epak,
  person,
  onSignInPerson,
  onSettled,
  withDownload,
}: {
  readonly epak: EpakDetail;
  readonly person: CeremonyPerson;
  readonly onSignInPerson: ((recipient: EpakRecipient) => void) | undefined;
  readonly onSettled: ((outcome: Outcome) => void) | undefined;
  readonly withDownload: boolean;
}) {
  const { t } = useTranslation();
  const { callApi, scope } = useSigningApi();
  const queryClient = useQueryClient();
  const ePakId = epak.ePakId;
  const epakKey = signingQueryKeys.epak(scope, ePakId);
  const viewer = epak.viewer ?? NO_VIEWER;

  const me = useMemo(() => epak.steps.flatMap((step) => step.recipients).find((recipient) => recipient.recipientId === viewer.recipientId), [epak.steps, viewer.recipientId]);
  const signer: Signer = useMemo(
    () => ({
      email: me?.email ?? person.email,
      stepOrder: viewer.stepOrder,
      name: (me ? fullName(me) : '') || person.name || person.email,
    }),
    [me, person, viewer.stepOrder],
  );

  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const canAct = viewer.canAct && outcome === null;
  // Whoever hosts this ceremony (an in-person signer's turn) hears of the outcome once, settled.
  const settledFor = useRef<Outcome | null>(null);
  useEffect(() => {
    if (!outcome?.settled || settledFor.current === outcome) return;
    settledFor.current = outcome;
    onSettled?.(outcome);
  }, [outcome, onSettled]);
  const contextOf = useCallback(
    (documentId: string): EditContext => ({ signer, canAct, documentSigned: viewer.signedDocumentIds.includes(documentId) }),
    [signer, canAct, viewer.signedDocumentIds],
  );

  // ---- tags of every document ----
  const tagQueries = useQueries({
    queries: epak.documents.map((document) => ({
      queryKey: signingQueryKeys.tags(scope, ePakId, document.documentId, document.revisions),
      queryFn: ({ signal }: { signal: AbortSignal }) => callApi(getSignatureBlocks, { params: { ePakId, documentId: document.documentId } }, { signal, failures: 'caller' }),
      // A signature changes the key (revisions): the tags as they were stay until the new ones come.
      placeholderData: keepPreviousData,
    })),
  });
  const tagsOf = (documentId: string): readonly Tag[] => tagQueries[epak.documents.findIndex((document) => document.documentId === documentId)]?.data?.tags ?? [];

  // ---- what the signer entered ----
  const [entered, setEntered] = useState<DocumentValues>({});
  const [reason, setReason] = useState<ReasonState>(NO_REASON);
  const chosenReason = reasonText(t, reason, viewer.reasons);
  const [placeTyped, setPlaceTyped] = useState('');
  const [locationError, setLocationError] = useState<string | null>(null);
  const locationInput = useRef<HTMLInputElement | null>(null);
  /** Entered values, with the signer's reason fields showing the reason chosen for the signature. */
  const valuesOf = (documentId: string): Values => {
    const own = { ...(entered[documentId] ?? {}) };
    const context = contextOf(documentId);
    for (const tag of fillableTags(tagsOf(documentId))) {
      if (valueKindOf(tag) === 'reason' && isEditable(tag, context)) own[tag.uuid] = chosenReason ?? null;
    }
    return own;
  };
  const lastChanged = useRef<{ documentId: string; uuid: string } | null>(null);
  const setValue = (documentId: string, uuid: string, value: TagValue) => {
    lastChanged.current = { documentId, uuid };
    setHighlighted((current) => {
      if (!current.has(uuid.toLowerCase())) return current;
      const next = new Set(current);
      next.delete(uuid.toLowerCase());
      return next;
    });
    setEntered((current) => ({ ...current, [documentId]: { ...(current[documentId] ?? {}), [uuid]: value } }));
  };

  // ---- signature, initials and the typed name, made once and reused ----
  const [marks, setMarks] = useState<{ signature: string | null; initials: string | null; typedName: string | null }>({ signature: null, initials: null, typedName: null });
  const [markRequest, setMarkRequest] = useState<MarkRequest | null>(null);
  const [markError, setMarkError] = useState(false);
  const withMark = (kind: MarkKind, then: (image: string) => void) => {
    const kept = marks[kind];
    if (kept) then(kept);
    else setMarkRequest({ kind, then });
  };
  const typedName = async (): Promise<string | null> => {
    if (marks.typedName) return marks.typedName;
    try {
      const image = await renderTypedSignature(signer.name);
      setMarks((current) => ({ ...current, typedName: image }));
      return image;
    } catch {
      setMarkError(true);
      return null;
    }
  };

  /** Spec §4 "Clicking a tag sets its value": the signature, the initials or the full name. */
  const applyByClick = (tag: Tag, documentId: string) => {
    setMarkError(false);
    switch (valueKindOf(tag)) {
      case 'signature':
        return withMark('signature', (image) => setValue(documentId, tag.uuid, image));
      case 'initials':
        return withMark('initials', (image) => setValue(documentId, tag.uuid, image));
      case 'typedName':
        return void typedName().then((image) => image && setValue(documentId, tag.uuid, image));
      case 'name':
        return setValue(documentId, tag.uuid, signer.name);
      default:
        return undefined;
    }
  };

  // ---- composite auto-fill (spec §4) ----
  const [autoFill, setAutoFill] = useState(true);
  const [autoFillOffer, setAutoFillOffer] = useState<number | null>(null);
  const unsignedDocuments = epak.documents.filter((document) => !viewer.signedDocumentIds.includes(document.documentId));
  const remainingCompositeParts = (exceptUuid: string) =>
    unsignedDocuments.flatMap((document) => {
      const composites = ownComposites(tagsOf(document.documentId), contextOf(document.documentId)).filter((composite) => composite.uuid !== exceptUuid);
      return autoFillTargets(composites, valuesOf(document.documentId)).map((tag) => ({ tag, documentId: document.documentId }));
    });
  const remainingCompositeCount = (exceptUuid: string) =>
    unsignedDocuments.reduce(
      (sum, document) =>
        sum +
        ownComposites(tagsOf(document.documentId), contextOf(document.documentId)).filter(
          (composite) => composite.uuid !== exceptUuid && !isCompositeComplete(composite, valuesOf(document.documentId)),
        ).length,
      0,
    );
  const [completedComposite, setCompletedComposite] = useState<string | null>(null);

  // An effect event: it reads the helpers of the render that ran it, and runs after each entry only.
  const offerAutoFill = useEffectEvent(() => {
    const changed = lastChanged.current;
    lastChanged.current = null;
    if (!changed || !autoFill || !canAct) return;
    const tags = tagsOf(changed.documentId);
    const composite = ownComposites(tags, contextOf(changed.documentId)).find(
      (candidate) => candidate.uuid === changed.uuid || fillableTags(candidate.children ?? []).some((child) => child.uuid === changed.uuid),
    );
    if (!composite || !isCompositeComplete(composite, valuesOf(changed.documentId))) return;
    const count = remainingCompositeCount(composite.uuid);
    if (count > 0) {
      setCompletedComposite(composite.uuid);
      setAutoFillOffer(count);
    }
  });
  useEffect(() => offerAutoFill(), [entered]);

  const acceptAutoFill = () => {
    const targets = remainingCompositeParts(completedComposite ?? '');
    setAutoFillOffer(null);
    setEntered((current) => {
      const next: Record<string, Values> = { ...current };
      for (const { tag, documentId } of targets) {
        const kind = valueKindOf(tag);
        const value = kind === 'signature' ? marks.signature : kind === 'initials' ? marks.initials : kind === 'typedName' ? marks.typedName : kind === 'name' ? signer.name : null;
        if (value) next[documentId] = { ...(next[documentId] ?? {}), [tag.uuid]: value };
      }
      return next;
    });
  };
  const declineAutoFill = () => {
    setAutoFillOffer(null);
    // Spec §4: declining switches the auto-fill toggle off.
    setAutoFill(false);
  };

  // ---- where the signer signs (spec §9 geolocation) ----
  // A location field of their own is where they say it, as before; without one, and when the
  // tenant asks, the panel asks. With MANDATORY the server refuses a signature without it.
  const ownLocationTags = unsignedDocuments.flatMap((document) =>
    fillableTags(tagsOf(document.documentId))
      .filter((tag) => tag.type === 'location' && isEditable(tag, contextOf(document.documentId)))
      .map((tag) => ({ documentId: document.documentId, tag })),
  );
  const askLocation = viewer.geolocation !== 'OFF' && ownLocationTags.length === 0;
  const tagLocation = ownLocationTags
    .map(({ documentId: id, tag }) => valueOf(tag, valuesOf(id)))
    .find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const location = (tagLocation ?? (askLocation ? placeTyped : '')).trim();

  const hasSeveralComposites = unsignedDocuments.reduce((sum, document) => sum + ownComposites(tagsOf(document.documentId), contextOf(document.documentId)).length, 0) > 1;

  // ---- the document shown ----
  const [documentId, setDocumentId] = useState(epak.documents[0]?.documentId ?? '');
  const current: EpakDocument | undefined = epak.documents.find((document) => document.documentId === documentId) ?? epak.documents[0];
  const currentId = current?.documentId ?? '';
  const { pdf, revisions: shownRevisions } = useSigningPdf(ePakId, currentId, current?.revisions ?? 0);

  // View enforcement (spec §5): a document counts as opened once its pages are shown to the person.
  const reportedViews = useRef(new Set<string>());
  useEffect(() => {
    if (pdf.status !== 'ready' || !currentId || viewer.recipientId === null) return;
    if (viewer.viewedDocumentIds.includes(currentId) || reportedViews.current.has(currentId)) return;
    reportedViews.current.add(currentId);
    callApi(actOnEpakDocument, { params: { epakId: ePakId, documentId: currentId, action: 'view' } }, { failures: 'caller' }).then(
      (next) => queryClient.setQueryData<EpakDetail>(epakKey, (old) => (old ? { ...old, viewer: next } : old)),
      // Not recorded: the next showing of the document tries again.
      () => reportedViews.current.delete(currentId),
    );
  }, [pdf.status, currentId, viewer.recipientId, viewer.viewedDocumentIds, callApi, ePakId, queryClient, epakKey]);

  // ---- zoom ----
  const configuration = usePublicConfiguration();
  const zoomConfig = configuration.data?.zoom;
  const limits: ZoomLimits = useMemo(
    () => ({ min: zoomConfig?.min ?? ZOOM_DEFAULTS.min, max: zoomConfig?.max ?? ZOOM_DEFAULTS.max, step: zoomConfig?.step ?? ZOOM_DEFAULTS.step }),
    [zoomConfig],
  );
  const [customZoom, setCustomZoom] = useState<number | null>(null);
  const [available, setAvailable] = useState(0);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const pageElements = useRef(new Map<number, HTMLElement>());
  const pages: readonly PageGeometry[] = current?.pages ?? [];
  const zoom = customZoom === null ? fitToWidthZoom(available, pages, limits) : clampZoom(customZoom, limits);
  const zoomBy = (direction: 1 | -1) => {
    const next = stepZoom(zoom, direction, limits);
    if (next !== null) setCustomZoom(next);
  };

  // ---- highlighting and going to a field ----
  /** Fields to point at (lower-case uuids): left empty when signing was tried, or named by a refusal. */
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const [openTag, setOpenTag] = useState<string | null>(null);
  // The field to bring into view once it is on the page: its page may render a few renders later,
  // so every render tries until it is there. A ref, not state: finding it needs no new render.
  const focusTag = useRef<string | null>(null);
  const [, setFocusRequests] = useState(0);
  useEffect(() => {
    if (!focusTag.current) return;
    const element = document.querySelector<HTMLElement>(`[data-tag-uuid="${focusTag.current}"]`);
    if (!element) return;
    focusTag.current = null;
    element.scrollIntoView?.({ block: 'center', inline: 'nearest' });
    element.focus({ preventScroll: true });
  });
  const goTo = (target: { documentId: string; uuid: string }) => {
    setDocumentId(target.documentId);
    focusTag.current = target.uuid;
    // A render, so the effect above looks for it even when the document stays the same.
    setFocusRequests((requests) => requests + 1);
  };

  // ---- progress ----
  const progress = epak.documents.map((document) => ({
    document,
    signed: viewer.signedDocumentIds.includes(document.documentId),
    viewed: viewer.viewedDocumentIds.includes(document.documentId),
    loaded: tagQueries[epak.documents.indexOf(document)]?.data !== undefined,
    ...requiredProgress(tagsOf(document.documentId), valuesOf(document.documentId), contextOf(document.documentId), { reasonGiven: chosenReason !== undefined }),
  }));
  const missing = progress.filter((entry) => !entry.signed).flatMap((entry) => entry.missing.map((tag) => ({ documentId: entry.document.documentId, uuid: tag.uuid })));
  const nextMissing = missing.find((entry) => entry.documentId === currentId) ?? missing[0];

  // ---- rubber stamps (issue 8): offered when the viewer says this signer may apply them ----
  const stampChoices: readonly RubberStampChoice[] = viewer.rubberStamps?.available ? viewer.rubberStamps.stamps : [];
  const signingStep = viewer.stepType === 'SIGN' || viewer.stepType === 'INPERSONSIGN';
  const [stampUses, setStampUses] = useState<Readonly<Record<string, { use: RubberStampUse; pageNumber: number; rect: Rect }>>>({});
  const appliedHere = stampUses[currentId];
  const applyStamp = (stamp: RubberStampChoice) => {
    if (!current) return;
    const placed = stampUseFor({ stamp, tags: tagsOf(current.documentId), pages: current.pages, signer });
    if (placed) setStampUses((uses) => ({ ...uses, [current.documentId]: placed }));
  };
  const removeStamp = () =>
    setStampUses((uses) => {
      const next = { ...uses };
      delete next[currentId];
      return next;
    });

  // ---- actions ----
  const [actionError, setActionError] = useState<string | null>(null);
  const [signing, setSigning] = useState<{ index: number; count: number } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: signingQueryKeys.all(scope, ePakId) });
  /** The action is done: say so, and fetch where everyone stands now (the step may have moved on). */
  const conclude = (done: Omit<Outcome, 'settled'>) => {
    setOutcome({ ...done, settled: false });
    void refresh().finally(() => setOutcome((shown) => (shown ? { ...shown, settled: true } : shown)));
  };
  const failed = (error: unknown) => {
    if (refusedLocation(error)) {
      // The tenant asks for a location now and this screen did not know: fetch its setting again.
      setActionError(t('signing.location.requiredNow'));
      void refresh();
      return;
    }
    setActionError(actionErrorMessage(t, error));
    const named = refusedTagUuids(error);
    if (named.length > 0) {
      setHighlighted(new Set(named));
      const owner = epak.documents.find((document) => fillableTags(tagsOf(document.documentId)).some((tag) => named.includes(tag.uuid.toLowerCase())));
      if (owner) setDocumentId(owner.documentId);
    }
    if (staleAfter(error)) void refresh();
  };

  const sign = useMutation({
    mutationFn: async () => {
      const pending = epak.documents.filter((document) => !viewer.signedDocumentIds.includes(document.documentId));
      let last: SignDocumentResult | null = null;
      // One document after another, in the ePak's order: each is one revision sealed by the server.
      for (const [index, document] of pending.entries()) {
        setSigning({ index, count: pending.length });
        last = await callApi(
          signEpakDocument,
          {
            params: { ePakId, documentId: document.documentId },
            body: {
              action: 'SIGN',
              values: valuesToSend(tagsOf(document.documentId), valuesOf(document.documentId), contextOf(document.documentId)),
              ...(chosenReason ? { reason: chosenReason } : {}),
              ...(location ? { location } : {}),
              ...(stampUses[document.documentId] ? { rubberStamps: [stampUses[document.documentId]!.use] } : {}),
            },
          },
          { failures: 'caller' },
        );
        // Remembered at once: should a later document fail, trying again skips the ones signed.
        const signedId = document.documentId;
        queryClient.setQueryData<EpakDetail>(epakKey, (old) =>
          old?.viewer ? { ...old, viewer: { ...old.viewer, signedDocumentIds: [...new Set([...old.viewer.signedDocumentIds, signedId])] } } : old,
        );
      }
      return last;
    },
    onMutate: () => setActionError(null),
    onSuccess: (last) => {
      conclude({ kind: 'signed', epakStatus: last?.epakStatus ?? null, stepOrder: viewer.stepOrder });
    },
    onError: failed,
    onSettled: () => setSigning(null),
  });

  const trySign = () => {
    setActionError(null);
    const locationMissing = viewer.geolocation === 'MANDATORY' && location === '';
    // The panel's field says so under itself; a location field on the pages is highlighted below.
    if (locationMissing && askLocation) setLocationError(t('signing.location.required'));
    if (missing.length > 0) {
      setHighlighted(new Set(missing.map((entry) => entry.uuid.toLowerCase())));
      setActionError(t('signing.errors.fillRequired', { count: missing.length }));
      if (nextMissing) goTo(nextMissing);
      return;
    }
    if (locationMissing) {
      if (askLocation) {
        locationInput.current?.focus();
      } else {
        setHighlighted(new Set(ownLocationTags.map(({ tag }) => tag.uuid.toLowerCase())));
        setActionError(t('signing.location.tagRequired'));
        goTo({ documentId: ownLocationTags[0]!.documentId, uuid: ownLocationTags[0]!.tag.uuid });
      }
      return;
    }
    sign.mutate();
  };

  const review = useMutation({
    mutationFn: () => callApi(setEpakStatus, { body: { ePakId, status: 'Reviewed' } }, { failures: 'caller' }),
    onMutate: () => setActionError(null),
    onSuccess: (answer) => {
      conclude({ kind: 'reviewed', epakStatus: answer.status, stepOrder: viewer.stepOrder });
    },
    onError: failed,
  });

  const [rejecting, setRejecting] = useState(false);
  const reject = useMutation({
    mutationFn: (comment: string) => callApi(rejectEpak, { params: { ePakId }, body: { comment } }, { failures: 'caller' }),
    onSuccess: (answer) => {
      setRejecting(false);
      conclude({ kind: 'rejected', epakStatus: answer.status, stepOrder: viewer.stepOrder });
    },
    onError: (error) => {
      if (staleAfter(error)) {
        setRejecting(false);
        failed(error);
      }
    },
  });

  // ---- the pages' tags ----
  const renderTags = (pageNumber: number, page: PageGeometry): ReactNode => {
    if (!current) return null;
    const context = contextOf(current.documentId);
    const values = valuesOf(current.documentId);
    const stamp = stampUses[current.documentId];
    const stampShown =
      stamp && stamp.pageNumber === pageNumber && !context.documentSigned ? (
        <AppliedStamp key="applied-stamp" ePakId={ePakId} rubberStampId={stamp.use.rubberStampId} shown={pageToDisplay(stamp.rect, page, zoom)} />
      ) : null;
    const shownTags = fillableTags(tagsOf(current.documentId))
      .filter((tag) => tag.pageNumber === pageNumber && !isGroupTag(tag))
      .map((tag) => {
        const kind = valueKindOf(tag);
        const own = isTagFor(tag, signer);
        const editable = isEditable(tag, context);
        const value = valueOf(tag, values);
        const presentation = presentationOf(tag, { own, editable, documentSigned: context.documentSigned, filled: isFilledValue(value) });
        const typeName = t(`tagEditor.types.${tag.type}`);
        const ownerName = ownerNameOf(epak, tag);
        const required = isRequiredTag(tag);
        const state = [required ? t('signing.tag.required') : null, editable && isFilledValue(value) ? t('signing.tag.filled') : null].filter(Boolean).join(', ');
        const label = [
          own ? t('signing.tag.own', { type: typeName, page: pageNumber }) : t('signing.tag.others', { type: typeName, name: ownerName ?? t('signing.tag.someone'), page: pageNumber }),
          state,
        ]
          .filter(Boolean)
          .join(', ');
        const click = () => {
          if (CLICK_FILLED_KINDS.has(kind) && !isFilledValue(value)) return applyByClick(tag, current.documentId);
          setOpenTag(tag.uuid);
        };
        return (
          <SigningTag
            key={tag.uuid}
            uuid={tag.uuid}
            kind={kind}
            presentation={presentation}
            shown={pageToDisplay(tagRect(tag), page, zoom)}
            zoom={zoom}
            fontSize={tag.fontSize ?? 12}
            value={presentation === 'content' && kind === 'static' && tag.type !== 'letterHead' ? null : value}
            required={required}
            highlighted={highlighted.has(tag.uuid.toLowerCase())}
            label={label}
            placeholder={placeholderOf(t, tag, presentation, ownerName)}
            opened={openTag === tag.uuid}
            onClick={click}
            onClose={() => setOpenTag((open) => (open === tag.uuid ? null : open))}
            editor={
              openTag === tag.uuid ? (
                <TagFieldEditor
                  tag={tag}
                  kind={kind}
                  value={value}
                  label={typeName}
                  onChange={(next) => setValue(current.documentId, tag.uuid, next)}
                  onDone={() => setOpenTag(null)}
                  onChangeMark={
                    kind === 'signature' || kind === 'initials'
                      ? () => {
                          setOpenTag(null);
                          setMarkRequest({ kind, then: (image) => setValue(current.documentId, tag.uuid, image) });
                        }
                      : undefined
                  }
                  reason={reason}
                  onReasonChange={setReason}
                  reasons={viewer.reasons}
                  onAttach={async (file) => {
                    // The server keeps the file and shows its name in the tag (spec §4).
                    const attached = await callApi(attachToTag, { params: { ePakId, docId: current.documentId, tagId: tag.uuid }, files: { file } }, { failures: 'caller' });
                    setValue(current.documentId, tag.uuid, attached.name);
                  }}
                />
              ) : null
            }
          />
        );
      });
    return stampShown ? [...shownTags, stampShown] : shownTags;
  };

  if (!current) return <Text c="dimmed">{t('signing.noDocuments')}</Text>;
  const currentQuery = tagQueries[epak.documents.indexOf(current)];
  const inPersonWaiting = onSignInPerson ? pendingInPersonSigners(epak) : [];
  const why = canAct ? null : inPersonWaiting.length > 0 ? 'hostInPerson' : whyCannotAct(epak, viewer);

  return (
    <Stack gap="lg">
      <EpakHeading epak={epak} actions={withDownload ? <EpakDownloadButton epak={epak} /> : null} />

      {outcome && <OutcomeAlert outcome={outcome} epak={epak} />}
      {!outcome && why && (
        <Alert color={why === 'rejected' || why === 'expired' || why === 'stopped' ? 'red' : why === 'completed' || why === 'signed' || why === 'reviewed' ? 'teal' : 'blue'} variant="light" role="status" data-testid="why-not">
          {t(`signing.whyNot.${why}`)}
        </Alert>
      )}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm">
            {epak.documents.length > 1 && (
              <Tabs
                value={current.documentId}
                onChange={(value) => {
                  if (!value) return;
                  setDocumentId(value);
                  setOpenTag(null);
                }}
              >
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
              <Group gap={4} role="group" aria-label={t('tagEditor.zoom.toolbar')} wrap="nowrap">
                <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.out')} disabled={stepZoom(zoom, -1, limits) === null} onClick={() => zoomBy(-1)}>
                  <MinusIcon />
                </ActionIcon>
                <Text size="sm" w={48} ta="center" aria-label={t('tagEditor.zoom.level')}>
                  {zoomPercent(zoom)}%
                </Text>
                <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.in')} disabled={stepZoom(zoom, 1, limits) === null} onClick={() => zoomBy(1)}>
                  <PlusIcon size={18} />
                </ActionIcon>
                <Button variant={customZoom === null ? 'light' : 'default'} size="compact-sm" aria-pressed={customZoom === null} onClick={() => setCustomZoom(null)}>
                  {t('tagEditor.zoom.fitToWidth')}
                </Button>
              </Group>
            </Group>
            {currentQuery?.isError ? (
              <Alert color="red" variant="light" role="alert" title={t('signing.tagsFailed')}>
                <Button variant="light" color="red" size="xs" onClick={() => void currentQuery.refetch()}>
                  {t('signing.retry')}
                </Button>
              </Alert>
            ) : (
              // Which revision is on screen, for whoever needs to wait for the signed one (e2e).
              <Box data-testid="signing-document" data-revisions={current.revisions} data-shown-revisions={shownRevisions ?? undefined}>
                <DocumentPages
                  key={current.documentId}
                  document={current}
                  pdf={pdf}
                  zoom={zoom}
                  scrollRef={scrollRef}
                  pageElements={pageElements}
                  armed={false}
                  height={{ base: '70vh', md: 'min(78vh, 1100px)' }}
                  onAvailableWidth={setAvailable}
                  renderTags={renderTags}
                  onPageClick={() => setOpenTag(null)}
                  onPageDrop={() => undefined}
                />
              </Box>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            {canAct && (
              <ActionPanel
                stepType={viewer.stepType}
                eligible={viewer.eligibleForAction}
                openedCount={epak.documents.filter((document) => viewer.viewedDocumentIds.includes(document.documentId)).length}
                documentCount={epak.documents.length}
                progress={progress.map((entry) => ({ documentId: entry.document.documentId, name: entry.document.name, signed: entry.signed, loaded: entry.loaded, filled: entry.filled, total: entry.total }))}
                reason={reason}
                onReasonChange={setReason}
                reasons={viewer.reasons}
                location={
                  askLocation && viewer.geolocation !== 'OFF'
                    ? {
                        mode: viewer.geolocation,
                        value: placeTyped,
                        onChange: (next) => {
                          setPlaceTyped(next);
                          setLocationError(null);
                        },
                        error: locationError,
                        inputRef: locationInput,
                      }
                    : null
                }
                autoFill={hasSeveralComposites ? autoFill : null}
                onAutoFillChange={setAutoFill}
                onNextField={nextMissing ? () => goTo(nextMissing) : null}
                hasSignature={marks.signature !== null}
                onChangeSignature={() => setMarkRequest({ kind: 'signature', then: () => undefined })}
                error={actionError ?? (markError ? t('signing.signature.failed') : null)}
                signing={signing}
                signPending={sign.isPending}
                reviewPending={review.isPending}
                onSign={trySign}
                onReview={() => review.mutate()}
                onReject={() => {
                  reject.reset();
                  setRejecting(true);
                }}
              />
            )}
            {canAct && signingStep && stampChoices.length > 0 && (
              <StampChooser
                ePakId={ePakId}
                stamps={stampChoices}
                applied={appliedHere ? { rubberStampId: appliedHere.use.rubberStampId, pageNumber: appliedHere.pageNumber } : null}
                appliedCount={Object.keys(stampUses).length}
                documentCount={epak.documents.length}
                disabled={sign.isPending || viewer.signedDocumentIds.includes(currentId)}
                onApply={applyStamp}
                onRemove={removeStamp}
              />
            )}
            {onSignInPerson && <InPersonPanel epak={epak} onStart={onSignInPerson} />}
            <EpakSteps epak={epak} myRecipientId={viewer.recipientId} />
          </Stack>
        </Grid.Col>
      </Grid>

      <SignatureDialog
        opened={markRequest !== null}
        kind={markRequest?.kind ?? 'signature'}
        defaultText={markRequest?.kind === 'initials' ? initialsOf(signer.name) : signer.name}
        onClose={() => setMarkRequest(null)}
        onAdopt={(image) => {
          const request = markRequest;
          setMarkRequest(null);
          if (!request) return;
          setMarks((kept) => ({ ...kept, [request.kind]: image }));
          request.then(image);
        }}
      />
      <RejectDialog
        opened={rejecting}
        pending={reject.isPending}
        error={reject.isError ? actionErrorMessage(t, reject.error) : null}
        onCancel={() => setRejecting(false)}
        onConfirm={(comment) => reject.mutate(comment)}
      />
      <Modal opened={autoFillOffer !== null} onClose={declineAutoFill} title={t('signing.autoFill.title')} centered>
        <Stack gap="sm">
          <Text size="sm">{t('signing.autoFill.question', { count: autoFillOffer ?? 0 })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={declineAutoFill}>
              {t('signing.autoFill.no')}
            </Button>
            <Button onClick={acceptAutoFill}>{t('signing.autoFill.yes')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function presentationOf(tag: Tag, state: { own: boolean; editable: boolean; documentSigned: boolean; filled: boolean }): TagPresentation {
  const kind = valueKindOf(tag);
  // Filled in an earlier revision: the PDF itself shows it now (a done attachment its title,
  // which the server draws), so nothing is laid over it.
  if (tag.status === 'done') return 'sealed';
  if (state.own && state.documentSigned) return 'sealed';
  if (state.editable) return 'editable';
  if (kind === 'static' || (kind === 'image' && state.filled && !state.own)) return 'content';
  if (state.own && kind === 'server') return 'server';
  return 'pending';
}

function ownerNameOf(epak: EpakDetail, tag: Tag): string | null {
  if (!tag.userEmail) return null;
  for (const step of epak.steps) {
    const recipient = step.recipients.find((candidate) => isTagFor(tag, { email: candidate.email, stepOrder: step.order }));
    if (recipient) return displayName(recipient);
  }
  return tag.userEmail;
}

function placeholderOf(t: TFunction, tag: Tag, presentation: TagPresentation, ownerName: string | null): string {
  const typeName = t(`tagEditor.types.${tag.type}`);
  switch (presentation) {
    case 'editable':
      switch (valueKindOf(tag)) {
        case 'signature':
          return t('signing.tag.clickToSign');
        case 'initials':
          return t('signing.tag.clickToInitial');
        case 'typedName':
        case 'name':
          return t('signing.tag.clickForName');
        case 'attachment':
          return t('signing.tag.clickToAttach');
        default:
          return typeName;
      }
    case 'server':
      return t('signing.tag.setWhenSigned');
    case 'pending':
      return ownerName ? `${typeName} · ${ownerName}` : typeName;
    default:
      return typeName;
  }
}

function OutcomeAlert({ outcome, epak }: { readonly outcome: Outcome; readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  const completed = outcome.epakStatus === 'Completed' || epak.status === 'Completed';
  const movedOn = epak.currentStep !== outcome.stepOrder;
  const key =
    outcome.kind === 'rejected'
      ? 'signing.outcome.rejected'
      : !outcome.settled && !completed
        ? 'signing.outcome.updating'
        : completed
        ? outcome.kind === 'signed'
          ? 'signing.outcome.signedCompleted'
          : 'signing.outcome.reviewedCompleted'
        : movedOn
          ? outcome.kind === 'signed'
            ? 'signing.outcome.signedNext'
            : 'signing.outcome.reviewedNext'
          : outcome.kind === 'signed'
            ? 'signing.outcome.signedWaiting'
            : 'signing.outcome.reviewedWaiting';
  return (
    <Alert color={outcome.kind === 'rejected' ? 'red' : 'teal'} variant="light" role="status" icon={outcome.kind === 'rejected' ? undefined : <CheckIcon size={18} />} data-testid="signing-outcome">
      <Text size="sm" fw={500}>
        {t(key)}
      </Text>
    </Alert>
  );
}

