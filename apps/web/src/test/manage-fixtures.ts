import type { ActivityEntry, EpakDetail, EpakManagedRecipient, EpakManagement } from '@pakt/domain';
import { EPAK_ID, epakOf, stubCeremony, viewerOf } from './ceremony-fixtures';
import { jsonResponse, type FakeRoute } from './fake-api';

/**
 * Test support for the owner's management view (epak-manage): the ceremony's ePak as its owner
 * sees it, and a server answering the management calls (imported by tests only, never by the app).
 */

export const LATA = '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c01';
export const ASHA = '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c02';
export const RAVI = '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c03';
export const RAVI_USER = '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d03';
export const STEP_2 = '1d1c5a2e-0a6b-4c5e-9f1a-000000000002';

/** The owner's view: Asha sent the ePak and waits for nothing herself. */
export const ownersEpak = (over: Partial<EpakDetail> = {}) =>
  epakOf(over, viewerOf({ isOwner: true, recipientId: null, canAct: false, status: null, stepOrder: null, stepType: null }));

const ok = (data: unknown) => jsonResponse({ code: 1, data });

export const managementOf = (recipients: Partial<EpakManagedRecipient>[] = [], over: Partial<EpakManagement> = {}): EpakManagement => ({
  ePakId: EPAK_ID,
  archivedOn: null,
  archivalPeriodDays: null,
  recipients: [LATA, ASHA, RAVI].map((recipientId) => ({
    recipientId,
    actedOn: recipientId === LATA ? '2025-03-05T11:00:00.000Z' : null,
    lastRemindedOn: null,
    // Ravi is the outsider: his mails carry signing links.
    receivesSigningLink: recipientId === RAVI,
    delegatedFromId: null,
    ...recipients.find((r) => r.recipientId === recipientId),
  })),
  ...over,
});

export function activityEntry(seq: number, action: string, over: Partial<ActivityEntry> = {}): ActivityEntry {
  return {
    seq,
    at: `2025-03-05T1${seq % 10}:00:00.000Z`,
    action,
    actor: { userId: '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d', name: 'Asha Rao', email: 'asha@example.com' },
    details: {},
    ip: '203.0.113.7',
    hash: `${String(seq).padStart(2, '0')}${'a'.repeat(62)}`,
    prevHash: null,
    ...over,
  };
}

export const managePaths = {
  manage: `/msbapi/v2/epaks/${EPAK_ID}/manage`,
  activity: `/msbapi/v2/epaks/${EPAK_ID}/activity`,
  attachments: `/msbapi/v2/epak/${EPAK_ID}/attach`,
  remind: (userId: string, state: string, order: number) => `/msbapi/v2/epak/${EPAK_ID}/user/${userId}/state/${state}/wforder/${order}/reminder`,
  link: (recipientId: string) => `/msbapi/v2/epaks/${EPAK_ID}/recipients/${recipientId}/link`,
  resend: (recipientId: string) => `/msbapi/v2/epaks/${EPAK_ID}/recipients/${recipientId}/link/resend`,
  edit: '/msbapi/v2/epak/edit',
  status: '/msbapi/v2/epak/status',
  archive: `/msbapi/v2/epak/${EPAK_ID}/archive`,
  archivalPeriod: `/msbapi/v2/updateEpakArchivalPeriod/${EPAK_ID}`,
  notificationDate: '/msbapi/v2/epak/notif/date',
  removeRecipient: `/msbapi/v1/epak/${EPAK_ID}/deleteSigner`,
  replace: (recipientId: string) => `/msbapi/v2/epaks/${EPAK_ID}/recipients/${recipientId}/replace`,
  recall: (email: string, workflowStateId: string) => `/msbapi/v2/epaks/${EPAK_ID}/user/${encodeURIComponent(email)}/${workflowStateId}/delegatecancel`,
  certificate: `/msbapi/v2/epaks/${EPAK_ID}/certificate`,
};

/**
 * The ceremony's server (stubCeremony) plus the management calls: the facts, the activity and
 * the attachments as given; the test's routes answer the actions.
 */
export function stubManage(
  epak: EpakDetail,
  options: { management?: EpakManagement; activity?: ActivityEntry[]; chainValid?: boolean; routes?: Record<string, FakeRoute> } = {},
) {
  return stubCeremony(
    epak,
    {},
    {
      [`GET ${managePaths.manage}`]: () => ok(options.management ?? managementOf()),
      [`GET ${managePaths.activity}`]: () => ok({ entries: options.activity ?? [activityEntry(1, 'composed'), activityEntry(2, 'started')], chainValid: options.chainValid ?? true }),
      [`GET ${managePaths.attachments}`]: () => ok({ attachments: [] }),
      ...options.routes,
    },
  );
}
