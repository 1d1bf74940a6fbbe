import { newTag, type EpakDetail, type EpakViewer, type NewTagInit, type PageGeometry, type SigningReason, type Tag } from '@pakt/domain';
import { errorResponse, jsonResponse, stubApi, type FakeRoute } from './fake-api';

/** Test support for the signing ceremony (imported by tests only, never by the app). */

export const EPAK_ID = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const DOC_A = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c60';
export const DOC_B = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c61';
export const DOC_C = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c62';
export const ME = 'asha@example.com';
export const MY_RECIPIENT = '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c02';

const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };

/** A tenant's reasons as it starts: the built-in four, the first the default (spec §9). */
export const BUILT_IN_REASONS: SigningReason[] = (
  [
    ['approve', 'I approve this document'],
    ['agree', 'I agree to the terms of this document'],
    ['author', 'I am the author of this document'],
    ['witness', 'I sign as a witness'],
  ] as const
).map(([key, text], index) => ({ reasonId: `4c1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c0${index + 1}`, key, text, position: index + 1, enabled: true, isDefault: index === 0 }));

export const epakDocument = (documentId: string, name: string) => ({ documentId, sourceDocumentId: null, name, pageCount: 1, pages: [A4], revisions: 0, signatureState: null });

export const viewerOf = (over: Partial<EpakViewer> = {}): EpakViewer => ({
  isOwner: false,
  recipientId: MY_RECIPIENT,
  stepOrder: 2,
  stepType: 'SIGN',
  status: 'Pending',
  canAct: true,
  isRead: true,
  eligibleForAction: true,
  viewedDocumentIds: [],
  signedDocumentIds: [],
  starred: false,
  geolocation: 'OFF',
  reasons: BUILT_IN_REASONS,
  signerName: null,
  nameRequired: false,
  ...over,
});

export function epakOf(over: Partial<EpakDetail> = {}, viewer: Partial<EpakViewer> = {}): EpakDetail {
  return {
    ePakId: EPAK_ID,
    subject: 'Office lease',
    message: 'Please sign by Friday.',
    status: 'InProgress',
    signingPolicy: 'ESIGNATURE',
    workflowId: null,
    documents: [epakDocument(DOC_A, 'lease.pdf')],
    steps: [
      {
        order: 1,
        workflowStateId: '1d1c5a2e-0a6b-4c5e-9f1a-000000000001',
        name: 'Legal review',
        type: 'REVIEW',
        recipients: [
          { recipientId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c01', userId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d01', email: 'lawyer@example.com', firstName: 'Lata', lastName: 'Menon', type: 'internal', status: 'Reviewed' },
        ],
      },
      {
        order: 2,
        workflowStateId: '1d1c5a2e-0a6b-4c5e-9f1a-000000000002',
        name: 'Sign',
        type: 'SIGN',
        recipients: [
          { recipientId: MY_RECIPIENT, userId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d02', email: ME, firstName: 'Asha', lastName: 'Rao', type: 'internal', status: 'Pending' },
          { recipientId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c03', userId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d03', email: 'ravi@example.com', firstName: 'Ravi', lastName: 'Iyer', type: 'external', status: 'Pending' },
        ],
      },
    ],
    signerCount: 2,
    currentStep: 2,
    expiresOn: null,
    notificationStartDate: null,
    viewEnforced: false,
    ownerId: '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d',
    ownerName: 'Meera Shah',
    createdOn: '2025-03-05T10:00:00.000Z',
    modifiedOn: '2025-03-05T10:00:00.000Z',
    viewer: viewerOf(viewer),
    ...over,
  };
}

let counter = 0;

/** A tag of the type's default size, for the signer given (by default the person signing, step 2). */
export function tagFor(type: Tag['type'], init: Partial<NewTagInit> & { required?: boolean } = {}): Tag {
  counter += 1;
  const { required, ...rest } = init;
  return newTag({
    uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    type,
    pageNumber: 1,
    positionX: 40,
    positionY: 40 + counter * 30,
    userEmail: ME,
    wfsOrderId: 2,
    ...(required ? { validations: { required: { value: true } } } : {}),
    ...rest,
  });
}

const ok = (data: unknown) => jsonResponse({ code: 1, data });
const pdfBytes = () => new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { 'Content-Type': 'application/pdf' } });

export const paths = {
  epak: `/msbapi/v2/epaks/${EPAK_ID}`,
  blocks: (documentId: string) => `/msbapi/v2/epaks/${EPAK_ID}/documents/${documentId}/signatureblocks`,
  download: (documentId: string) => `/msbapi/v2/epaks/${EPAK_ID}/documents/${documentId}/download`,
  sign: (documentId: string) => `/msbapi/v2/epaks/${EPAK_ID}/documents/${documentId}/sign`,
  view: (documentId: string) => `/msbapi/v2/epak/${EPAK_ID}/document/${documentId}/view`,
  reject: `/msbapi/v2/epaks/${EPAK_ID}/reject`,
  status: '/msbapi/v2/epak/status',
};

/**
 * A server holding one ePak and the tags of its documents. Signing a document records it in the
 * viewer, as the real server does, so the screen's refetch shows the new state.
 */
export function stubCeremony(initial: EpakDetail, tags: Readonly<Record<string, Tag[]>>, routes: Record<string, FakeRoute> = {}) {
  let epak = initial;
  const state = {
    get epak() {
      return epak;
    },
    set epak(next: EpakDetail) {
      epak = next;
    },
  };
  // The test's routes come last: one for the same request replaces the default answer.
  const api = stubApi({
    [`GET ${paths.epak}`]: () => ok(epak),
    ...Object.fromEntries(
      epak.documents.flatMap((document) => [
        [`GET ${paths.blocks(document.documentId)}`, () => ok({ tags: tags[document.documentId] ?? [] })],
        [`GET ${paths.download(document.documentId)}`, pdfBytes],
        [
          `PUT ${paths.view(document.documentId)}`,
          () => {
            const viewer = epak.viewer!;
            const viewed = [...new Set([...viewer.viewedDocumentIds, document.documentId])];
            const isRead = epak.documents.every((candidate) => viewed.includes(candidate.documentId));
            epak = { ...epak, viewer: { ...viewer, viewedDocumentIds: viewed, isRead, eligibleForAction: !epak.viewEnforced || isRead } };
            return ok(epak.viewer);
          },
        ],
        [
          `POST ${paths.sign(document.documentId)}`,
          () => {
            const viewer = epak.viewer!;
            const signed = [...new Set([...viewer.signedDocumentIds, document.documentId])];
            const remaining = epak.documents.map((candidate) => candidate.documentId).filter((id) => !signed.includes(id));
            const done = remaining.length === 0;
            epak = {
              ...epak,
              currentStep: done ? null : epak.currentStep,
              status: done ? 'Completed' : epak.status,
              viewer: { ...viewer, signedDocumentIds: signed, canAct: !done, status: done ? 'Signed' : 'Pending' },
            };
            return ok({ ePakId: EPAK_ID, documentId: document.documentId, documentStatus: 'Signed', signerStatus: done ? 'Signed' : 'Pending', epakStatus: epak.status, remainingDocumentIds: remaining, revision: 1 });
          },
        ],
      ]),
    ),
    [`POST ${paths.reject}`]: ({ body }) => {
      if (!(body as { comment?: string }).comment) return errorResponse(-6, 400, 'comment missing');
      epak = { ...epak, status: 'Rejected', viewer: { ...epak.viewer!, canAct: false, status: 'Rejected' } };
      return ok({ ePakId: EPAK_ID, status: 'Rejected' });
    },
    [`POST ${paths.status}`]: () => {
      epak = { ...epak, currentStep: 3, viewer: { ...epak.viewer!, canAct: false, status: 'Reviewed' } };
      return ok({ ePakId: EPAK_ID, status: 'InProgress', signerStatus: 'Reviewed' });
    },
    ...routes,
  });
  return { ...api, state };
}
