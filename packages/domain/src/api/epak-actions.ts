import { z } from 'zod';
import { SignerStatus } from '../constants/statuses';
import { EmailAddress } from '../constants/validation';
import { BulkSignResult } from '../constants/workflow';
import { singleLineText, toSingleLine } from '../single-line';
import { type BinaryBody, defineEndpoint } from './contract';
import { EpakRecipient, EpakStatus } from './epaks';

/**
 * Managing ePaks once sent (issue 5): star, archive, delete, delegate, reminders and the rest.
 * Each endpoint is one zod contract, as everywhere else. Owner-only calls answer a recipient who
 * can see the ePak with 403 (-11) and anyone else with 404; every other refusal is a catalogue
 * code with a message saying why.
 */

const EpakParams = z.object({ ePakId: z.uuid() });
const Email = z.string().trim().toLowerCase().pipe(EmailAddress);

export const toggleEpakStar = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId/togglestar',
  access: 'tenant',
  action: 'epak.act',
  summary: "Flips the caller's own star on an ePak they own or receive (nobody else sees it); answers the star as it now is.",
  params: EpakParams,
  response: z.object({ ePakId: z.uuid(), starred: z.boolean() }),
});

/** What became of one id of a bulk delete. */
export const EPAK_DELETE_RESULTS = ['DELETED', 'ALREADY_DELETED', 'ARCHIVED', 'NOT_FOUND'] as const;
export const EpakDeleteResult = z.enum(EPAK_DELETE_RESULTS);
export type EpakDeleteResult = z.infer<typeof EpakDeleteResult>;

export const DELETE_EPAKS_MAX = 100;

export const deleteEpaks = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v2/epaks',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    "Moves the caller's ePaks to Deleted; one under way is stopped first (its open places become Skipped). Answers per id: an id that is not the caller's ePak is NOT_FOUND, whoever's it is. Any action on a deleted ePak is -46 afterwards.",
  body: z.object({ ePakIds: z.array(z.uuid()).min(1).max(DELETE_EPAKS_MAX) }),
  response: z.object({
    results: z.array(z.object({ ePakId: z.uuid(), result: EpakDeleteResult, status: EpakStatus.nullable() })),
  }),
});

export const archiveEpak = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epak/:epakId/archive',
  access: 'tenant',
  action: 'epak.compose',
  summary: 'The owner archives an ePak that has ended (Completed, Rejected, Stopped or Expired; else -6); archived, nothing more is done with it (-47).',
  params: z.object({ epakId: z.uuid() }),
  response: z.object({ ePakId: z.uuid(), status: EpakStatus, archivedOn: z.iso.datetime() }),
});

export const updateEpakNotificationDate = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/epak/notif/date',
  access: 'tenant',
  action: 'epak.compose',
  summary: 'The owner sets (or clears, with null) when notifications about an ePak not yet ended start; it must come before the expiry (-6).',
  body: z.object({ ePakId: z.uuid(), notificationStartDate: z.iso.datetime().nullable() }),
  response: z.object({ ePakId: z.uuid(), notificationStartDate: z.iso.datetime().nullable() }),
});

export const ARCHIVAL_PERIOD_DAYS = { min: 1, max: 3650 } as const;

export const updateEpakArchivalPeriod = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/updateEpakArchivalPeriod/:ePakId',
  access: 'tenant',
  action: 'epak.compose',
  summary: 'The owner sets how many days after its end the ePak is kept before archival (1 to 3650).',
  params: EpakParams,
  body: z.object({ archivalPeriodDays: z.number().int().min(ARCHIVAL_PERIOD_DAYS.min).max(ARCHIVAL_PERIOD_DAYS.max) }),
  response: z.object({ ePakId: z.uuid(), archivalPeriodDays: z.number().int() }),
});

export const DelegateBody = z.object({
  /** Who takes the caller's place: someone known, or a new address invited as an external user. */
  email: Email,
  comment: z.string().trim().max(2000).optional(),
  /** The step the caller delegates; the step under way when left out. */
  workflowStateId: z.uuid().optional(),
});
export type DelegateBody = z.infer<typeof DelegateBody>;

export const delegateEpak = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/delegate',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    "A recipient of the step under way hands their place to someone else: they become Delegated, the delegate Pending (DelegatePending while an invited delegate has not registered) and is mailed; the caller's fields become the delegate's. -28 when nothing waits for the caller, -163 to oneself or to someone already in the step, -13 disabled, -173 cancelled invitation, -3 unknown address when the tenant invites nobody new.",
  params: EpakParams,
  body: DelegateBody,
  response: z.object({
    ePakId: z.uuid(),
    status: EpakStatus,
    /** The caller's place, now Delegated. */
    recipientId: z.uuid(),
    delegate: z.object({ recipientId: z.uuid(), userId: z.uuid(), email: z.string(), status: SignerStatus }),
  }),
});

export const cancelDelegation = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/user/:userEmail/:workflowStateId/delegatecancel',
  access: 'tenant',
  action: 'epak.act',
  summary:
    "The original recipient or the owner takes a delegated place back before the delegate acts: the delegate's place is removed and the original is Pending again (-28 once the delegate has acted). userEmail is the delegate's address or the original recipient's.",
  params: z.object({ ePakId: z.uuid(), userEmail: Email, workflowStateId: z.uuid() }),
  response: z.object({ ePakId: z.uuid(), status: EpakStatus, recipientId: z.uuid(), recipientStatus: SignerStatus }),
});

/** One reminder per recipient per this long (spec: reminders are the owner's nudge, not spam). */
export const REMINDER_INTERVAL_MINUTES = 60;

export const remindRecipient = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epak/:ePakId/user/:userId/state/:state/wforder/:wfOrderId/reminder',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    "The owner reminds a recipient of the step under way who has still to act (state: the status the owner saw, wfOrderId: the step's order): a mail goes out. -28 when they are not waiting (any more), -6 within an hour of the last reminder.",
  params: z.object({
    ePakId: z.uuid(),
    userId: z.uuid(),
    state: SignerStatus,
    wfOrderId: z.coerce.number().int().positive(),
  }),
  response: z.object({ ePakId: z.uuid(), recipientId: z.uuid(), remindedOn: z.iso.datetime() }),
});

export const removeEpakRecipient = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/epak/:ePakId/deleteSigner',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    'The owner removes a recipient who has not acted from a step not yet finished; a step under way left with nobody to wait for is done and the ePak moves on. Their fields on the documents (not yet signed, so not in the PDF) go with them. -28 when they acted.',
  params: EpakParams,
  body: z.object({ recipientId: z.uuid() }),
  response: z.object({ ePakId: z.uuid(), status: EpakStatus, currentStep: z.number().int().positive().nullable() }),
});

export const editEpak = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epak/edit',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    'The owner changes the subject, message or expiry (null: none) of an ePak not yet ended. modifiedOn is the one the editor loaded: -306 when the ePak changed since. -72 completed, -23 rejected.',
  body: z.object({
    ePakId: z.uuid(),
    modifiedOn: z.iso.datetime(),
    subject: singleLineText(200).optional(),
    message: z.string().trim().max(4000).nullable().optional(),
    expiresOn: z.iso.datetime().nullable().optional(),
  }),
  response: z.object({
    ePakId: z.uuid(),
    subject: z.string(),
    message: z.string().nullable(),
    expiresOn: z.iso.datetime().nullable(),
    modifiedOn: z.iso.datetime(),
  }),
});

export const BULK_SIGN_MAX = 50;

export const bulkSignEpaks = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/bulksign',
  access: 'tenant',
  action: 'epak.act',
  summary:
    'Signs every document of each ePak where the caller can sign now with nothing of theirs left to fill (and, when view-enforced, has read it); each ePak is SIGNED or SKIPPED with the reason.',
  body: z.object({ ePakIds: z.array(z.uuid()).min(1).max(BULK_SIGN_MAX), reason: z.string().trim().max(200).optional() }),
  response: z.object({
    results: z.array(
      z.object({
        ePakId: z.uuid(),
        result: BulkSignResult,
        /** Why it was skipped (null when signed), and the catalogue code when a refusal was the cause. */
        reason: z.string().nullable(),
        code: z.number().int().nullable(),
      }),
    ),
  }),
});

/**
 * Issue 21, the sender's management view: what the owner needs beyond the detail to manage a live
 * ePak (when each person acted and was last reminded, who gets a signing link rather than opening
 * the app, who delegated to whom, whether it is archived).
 */
export const EpakManagedRecipient = z.object({
  recipientId: z.uuid(),
  /** When they signed, reviewed, rejected or delegated; null while they have not. */
  actedOn: z.iso.datetime().nullable(),
  /** The last reminder (or link resent); the next may go REMINDER_INTERVAL_MINUTES later. */
  lastRemindedOn: z.iso.datetime().nullable(),
  /** Not an active member of the ePak's tenant: their mails carry a signing link. */
  receivesSigningLink: z.boolean(),
  /** The place this one was delegated from (a delegate's), else null. */
  delegatedFromId: z.uuid().nullable(),
});
export type EpakManagedRecipient = z.infer<typeof EpakManagedRecipient>;

export const EpakManagement = z.object({
  ePakId: z.uuid(),
  archivedOn: z.iso.datetime().nullable(),
  /** Days after its end before archival; null: the tenant's default. */
  archivalPeriodDays: z.number().int().nullable(),
  recipients: z.array(EpakManagedRecipient),
});
export type EpakManagement = z.infer<typeof EpakManagement>;

export const getEpakManagement = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId/manage',
  access: 'tenant',
  action: 'epak.compose',
  summary: "The owner's management facts of an ePak: per recipient when they acted, when they were last reminded, whether they get a signing link, who delegated to them; and whether it is archived.",
  params: EpakParams,
  response: EpakManagement,
});

const RecipientParams = EpakParams.extend({ recipientId: z.uuid() });

export const showSigningLink = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/recipients/:recipientId/link',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    "The owner gets a fresh signing link of a recipient who is sent links (not a member of the tenant) to hand on themselves; the showing is recorded in the ePak's activity. -6 for a member (they sign in), -28 when the recipient has no part to open now, -46 deleted, -47 archived.",
  params: RecipientParams,
  response: z.object({ ePakId: z.uuid(), recipientId: z.uuid(), email: z.string(), link: z.string(), expiresOn: z.iso.datetime() }),
});

export const resendSigningLink = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/recipients/:recipientId/link/resend',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    'The owner mails a recipient who is sent links a fresh signing link; like a reminder, at most one an hour per recipient (-6). Refusals as for showing a link.',
  params: RecipientParams,
  response: z.object({ ePakId: z.uuid(), recipientId: z.uuid(), email: z.string(), sentOn: z.iso.datetime() }),
});

/** A person's name as a recipient carries it into mail: one line, as the address book shows it. */
const RecipientName = (min: number) => z.string().overwrite(toSingleLine).trim().min(min).max(100);

export const ReplaceRecipientBody = z.object({
  /** The ePak's modifiedOn as the owner's view loaded it: -306 when it changed since. */
  modifiedOn: z.iso.datetime(),
  /** Who takes the place: a member or anyone known by this address, else a new external person. */
  email: Email,
  /** Names of a new external person (the address's local part without them); a known person keeps theirs. */
  firstName: RecipientName(1).optional(),
  lastName: RecipientName(0).optional(),
});
export type ReplaceRecipientBody = z.infer<typeof ReplaceRecipientBody>;

/**
 * Issue 21: the owner corrects a recipient (a mistyped address, the wrong colleague). A call of
 * its own, per place like the link calls above, rather than a list in editEpak: the refusals are
 * about one person (-28, -13, -173, -3), the effects are one person's (their fields, links, inbox,
 * mail), and the -306 check against modifiedOn is the same as editEpak's.
 */
export const replaceEpakRecipient = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/recipients/:recipientId/replace',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    "The owner gives the place of a recipient who has not acted, in a step not yet finished, to someone else: their fields become the new person's, their signing links stop working, the new person is asked at once when the step is under way and the old one told they are no longer needed. -306 when the ePak changed since modifiedOn, -28 when they acted (or signed part) or the step is finished, -6 for someone already in the step, -72 completed, -23 rejected, -46 deleted, -47 archived, -13 disabled, -173 cancelled invitation, -3 unknown address when the tenant invites nobody new.",
  params: RecipientParams,
  body: ReplaceRecipientBody,
  response: z.object({
    ePakId: z.uuid(),
    status: EpakStatus,
    currentStep: z.number().int().positive().nullable(),
    modifiedOn: z.iso.datetime(),
    /** The place given up (it no longer exists). */
    replacedRecipientId: z.uuid(),
    /** The new place, in the same step at the same position. */
    recipient: EpakRecipient,
  }),
});

export const downloadEpakCertificate = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId/certificate',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary: "The sealed certificate of completion of an ePak that has ended (-6 while it is under way), alone (its owner and its recipients).",
  params: EpakParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});
