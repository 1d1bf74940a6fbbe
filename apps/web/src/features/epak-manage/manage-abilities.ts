import { can, epakResourceOf, type EpakDetail, type EpakManagement, type EpakStatus, type ResourceActor } from '@pakt/domain';

/**
 * What the management view offers, asked of the domain's per-resource policies (`can`) exactly as
 * the server enforces them, plus the state the ePak is in (a stopped ePak cannot be stopped
 * again). Components read these flags and never compare owners or roles themselves; `compose`
 * is the role table's answer for 'epak.compose' (useCan), which every owner-only endpoint needs.
 */
export interface ManageAbilities {
  /** The view itself: the owner's ('epak.manage'). */
  readonly manage: boolean;
  readonly stop: boolean;
  readonly edit: boolean;
  readonly notificationDate: boolean;
  readonly archivalPeriod: boolean;
  readonly archive: boolean;
  readonly remind: boolean;
  readonly removeRecipient: boolean;
  /** Giving the place of someone who has not acted to another person (replaceEpakRecipient). */
  readonly replaceRecipient: boolean;
  readonly links: boolean;
  readonly recallDelegation: boolean;
  /** The owner is also a recipient and their own place waits: they may hand it on. */
  readonly delegateOwnPlace: boolean;
  readonly attach: boolean;
  /** Reading the log, attachments and downloads: anyone who may see the ePak. */
  readonly view: boolean;
}

const NONE: ManageAbilities = {
  manage: false,
  stop: false,
  edit: false,
  notificationDate: false,
  archivalPeriod: false,
  archive: false,
  remind: false,
  removeRecipient: false,
  replaceRecipient: false,
  links: false,
  recallDelegation: false,
  delegateOwnPlace: false,
  attach: false,
  view: false,
};

export const ENDED_STATUSES: readonly EpakStatus[] = ['Completed', 'Rejected', 'Stopped', 'Expired'];

export function manageAbilities(options: {
  readonly actor: (ResourceActor & { readonly tenantId: string }) | null;
  readonly compose: boolean;
  readonly epak: Pick<EpakDetail, 'ownerId' | 'status' | 'viewer'>;
  readonly management?: Pick<EpakManagement, 'archivedOn'> | null | undefined;
}): ManageAbilities {
  const { actor, epak } = options;
  if (!actor) return NONE;
  const resource = epakResourceOf(actor, epak);
  const view = can(actor, 'epak.view', resource);
  const manage = options.compose && can(actor, 'epak.manage', resource);
  const archived = Boolean(options.management?.archivedOn);
  const live = epak.status === 'InProgress' && !archived;
  const ended = ENDED_STATUSES.includes(epak.status);
  return {
    manage,
    stop: manage && live,
    edit: manage && live,
    notificationDate: manage && live,
    archivalPeriod: manage && !archived && epak.status !== 'Draft',
    archive: manage && ended && !archived,
    remind: manage && live,
    removeRecipient: manage && live,
    replaceRecipient: manage && live,
    links: manage && !archived && epak.status !== 'Draft',
    recallDelegation: live && can(actor, 'epak.recallDelegation', resource),
    delegateOwnPlace: live && can(actor, 'epak.respond', resource) && epak.viewer?.canAct === true,
    attach: manage && live,
    view,
  };
}
