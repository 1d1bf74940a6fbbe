import { DEFAULT_COMPLETED_LINK_DAYS, displayName, formatUtcTimestamp } from '@pakt/domain';
import type { EngineEffect } from '@pakt/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { digestSecret, generateSecret } from '../auth';
import type { Db } from '../../platform/db/database';
import { epakDocuments, epakLinks, epakRecipients, epaks, epakSteps, memberships, type OutboxAttachment, users } from '../../platform/db/schema';
import { queueEmail } from '../../platform/mail/outbox';
import { loadTenantSettings } from '../identity';
import { recordNotifications } from '../notifications';
import { pdfFileName, uniqueNames } from './download';
import { currentVersion, revisionsByDocument } from './revisions';

/**
 * The mail an engine answer calls for, queued in the outbox inside the transaction that stores
 * the answer: the outbox row is the durable job, so a state change and its mail commit together
 * and a rolled-back change mails nobody. Delivery (SMTP) picks the rows up after commit.
 *
 * Members of the ePak's tenant sign in and open /sign?ePakId=…&tenant=…; everyone else gets a signing link: a
 * 32-byte random token stored as its digest, good for that recipient of that ePak only, until it
 * expires or their part is over. The token appears in the mail, and to the ePak's owner alone
 * when they ask to see or resend it (show-signing-link.ts, logged in the activity as linkShown).
 */

export interface NotifyOptions {
  readonly epakId: string;
  readonly publicUrl: string;
  readonly linkDays: number;
  readonly now?: Date;
}

type EpakRow = typeof epaks.$inferSelect;

/**
 * The most an EMAIL step attaches to one mail. Common mail servers refuse larger messages
 * (Postfix's default message_size_limit is 10,240,000 bytes; many providers' limits are about
 * 10 MB), and a refused message reaches nobody, where a link always does. Above it the mail
 * carries the link alone and says why.
 */
export const MAIL_ATTACHMENT_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * What a file weighs inside a mail: base64 (4 bytes for every 3) in lines of 76 characters and a
 * CRLF. Servers count the message as sent, so the limit is checked against this, not the file size.
 */
export function encodedAttachmentSize(bytes: number): number {
  const base64 = 4 * Math.ceil(bytes / 3);
  return base64 + 2 * Math.ceil(base64 / 76);
}

async function recipientsById(tx: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ recipientId: epakRecipients.id, userId: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, type: users.type })
    .from(epakRecipients)
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(inArray(epakRecipients.id, [...ids]));
}

/** A fresh signing link for one recipient; earlier links of theirs stay good until they expire. */
export async function createSigningLink(tx: Db, options: { epakId: string; recipientId: string; publicUrl: string; linkDays: number; now?: Date }): Promise<string> {
  const token = generateSecret('pks');
  const now = options.now ?? new Date();
  await tx.insert(epakLinks).values({
    epakId: options.epakId,
    recipientId: options.recipientId,
    tokenHash: digestSecret(token),
    expiresAt: new Date(now.getTime() + options.linkDays * 24 * 3600 * 1000),
  });
  return `${options.publicUrl}/emailsign?token=${encodeURIComponent(token)}`;
}

/** Where a recipient opens the ePak: the app for members of its tenant, a signing link for others. */
async function linkFor(tx: Db, options: NotifyOptions & { tenantId: string }, person: { recipientId: string; userId: string }): Promise<string> {
  return (await placeLinkFor(tx, options, person)).link;
}

/** linkFor, saying which it is: a signing link's expiry, or null for the app (a member signs in). */
async function placeLinkFor(
  tx: Db,
  options: NotifyOptions & { tenantId: string },
  person: { recipientId: string; userId: string },
): Promise<{ link: string; expiresAt: Date | null }> {
  // Only an active member of the ePak's tenant can open it in the app; anyone else (external, or
  // internal to another organisation) gets a signing link.
  const [membership] = await tx
    .select({ status: memberships.status })
    .from(memberships)
    .where(and(eq(memberships.tenantId, options.tenantId), eq(memberships.userId, person.userId)));
  if (membership?.status === 'active') return { link: appLink(options.publicUrl, { id: options.epakId, tenantId: options.tenantId }), expiresAt: null };
  const now = options.now ?? new Date();
  const link = await createSigningLink(tx, { ...options, now, recipientId: person.recipientId });
  return { link, expiresAt: new Date(now.getTime() + options.linkDays * 24 * 3600 * 1000) };
}

/** The ePak in the app; the tenant rides along so someone in several tenants lands in the right one. */
export const appLink = (publicUrl: string, epak: { id: string; tenantId: string }) => `${publicUrl}/sign?ePakId=${epak.id}&tenant=${epak.tenantId}`;


/**
 * Mails the people a step now waits for (sign or review request). Also used by reminders and
 * delegation, with their own wording.
 */
export async function notifyRecipients(
  tx: Db,
  options: NotifyOptions & { recipientIds: readonly string[]; kind: 'sign_request' | 'review_request' | 'reminder' | 'delegated'; note?: string },
): Promise<void> {
  const [epak] = await tx.select().from(epaks).where(eq(epaks.id, options.epakId));
  if (!epak) return;
  const sender = await ownerOf(tx, epak);
  const review = options.kind === 'review_request';
  for (const person of await recipientsById(tx, options.recipientIds)) {
    const link = await linkFor(tx, { ...options, tenantId: epak.tenantId }, person);
    await queueEmail({ db: tx, tenantId: epak.tenantId, to: person.email, ...requestMail({ kind: options.kind, review, epak, sender, person, link, note: options.note }) });
  }
}

/** The mail asking someone to act (notifyRecipients); bulk compose writes the same mail in batches. */
export function requestMail(options: {
  kind: 'sign_request' | 'review_request' | 'reminder' | 'delegated';
  review: boolean;
  epak: { subject: string; message: string | null };
  sender: string;
  person: { firstName: string; lastName: string; email: string };
  link: string;
  note?: string | undefined;
}): { subject: string; body: string; kind: string } {
  const { epak, sender } = options;
  const verb = options.review ? 'review' : 'sign';
  const lead =
    options.kind === 'reminder'
      ? `A reminder: ${sender} is waiting for you to ${verb} "${epak.subject}".`
      : options.kind === 'delegated'
        ? `"${epak.subject}" from ${sender} was handed over to you to ${verb}.`
        : `${sender} asks you to ${verb} "${epak.subject}".`;
  return {
    subject: `${options.kind === 'reminder' ? 'Reminder: ' : ''}Please ${verb}: ${epak.subject}`,
    body: [
      `Hello ${displayName(options.person)},`,
      '',
      lead,
      ...(epak.message ? ['', epak.message] : []),
      ...(options.note ? ['', options.note] : []),
      '',
      `Open it here: ${options.link}`,
      '',
      'Pakt',
    ].join('\n'),
    kind: `epak_${options.kind}`,
  };
}

async function ownerOf(tx: Db, epak: EpakRow): Promise<string> {
  const [owner] = await tx.select().from(users).where(eq(users.id, epak.ownerId));
  return owner ? displayName(owner) : 'Someone';
}

async function mailOwner(tx: Db, epak: EpakRow, options: NotifyOptions, kind: string, subject: string, lines: string[]) {
  const [owner] = await tx.select().from(users).where(eq(users.id, epak.ownerId));
  if (!owner) return;
  await queueEmail({
    db: tx,
    tenantId: epak.tenantId,
    to: owner.email,
    subject,
    body: [`Hello ${displayName(owner)},`, '', ...lines, '', `Open it here: ${appLink(options.publicUrl, epak)}`, '', 'Pakt'].join('\n'),
    kind,
  });
}

/**
 * The ePak's documents as they stand now, as attachments pinned to their current revision (read
 * in the transaction that moves the workflow on, so the signature that completed the step before
 * is included and any later one is not), with their total size in a mail.
 */
async function currentDocumentsAsAttachments(tx: Db, epakId: string): Promise<{ names: string[]; attachments: OutboxAttachment[]; encodedSize: number }> {
  const docs = await tx.select().from(epakDocuments).where(eq(epakDocuments.epakId, epakId)).orderBy(asc(epakDocuments.position));
  const revisions = await revisionsByDocument(
    tx,
    docs.map((d) => d.id),
  );
  // The names a download would give them: distinct, safe on any system, ending in .pdf.
  const filenames = uniqueNames(docs.map((d) => pdfFileName(d.name)));
  let encodedSize = 0;
  const attachments = docs.map((doc, index): OutboxAttachment => {
    const revs = revisions.get(doc.id) ?? [];
    encodedSize += encodedAttachmentSize(currentVersion(doc, revs).size);
    return { filename: filenames[index]!, contentType: 'application/pdf', documentId: doc.id, revisionId: revs.at(-1)?.id ?? null };
  });
  return { names: docs.map((d) => d.name), attachments, encodedSize };
}

/** Places of someone who took part: they acted, or their EMAIL step mailed them. */
const TOOK_PART = ['Reviewed', 'Signed', 'Emailed'];

/**
 * Who is mailed the completed ePak: the owner, then everyone who took part in step order, each
 * address once. A recipient who was removed or replaced has no row any more, and one who handed
 * their place on is Delegated: neither took part, so neither is mailed.
 */
async function completionParticipants(tx: Db, epak: EpakRow) {
  const [owner] = await tx.select().from(users).where(eq(users.id, epak.ownerId));
  const places = await tx
    .select({ recipientId: epakRecipients.id, status: epakRecipients.status, userId: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(and(eq(epakRecipients.epakId, epak.id), inArray(epakRecipients.status, TOOK_PART)))
    .orderBy(asc(epakSteps.position), asc(epakRecipients.position));
  const people: { recipientId: string | null; userId: string; email: string; firstName: string; lastName: string }[] = [];
  const seen = new Set<string>();
  for (const person of [...(owner ? [{ ...owner, userId: owner.id, recipientId: null }] : []), ...places]) {
    const address = person.email.trim().toLowerCase();
    if (seen.has(address)) continue;
    seen.add(address);
    people.push({ recipientId: person.recipientId, userId: person.userId, email: person.email, firstName: person.firstName, lastName: person.lastName });
  }
  return people;
}

/**
 * The completion mail: the signed documents attached (as they stand at the end, pinned to their
 * last revision), or, above the attachment limit, the link alone. Members get the app; anyone
 * else a link of their own that opens the completed ePak (read-only: nothing is left to act on)
 * for the tenant's completedLinkDays. The certificate of completion is not attached: it is
 * sealed by a job once this transaction has committed (stored-certificate.ts), so the mail says
 * where to download it instead.
 */
async function queueCompletionMail(tx: Db, epak: EpakRow, options: NotifyOptions & { mailAttachmentLimitBytes?: number }) {
  const settings = await loadTenantSettings(tx, epak.tenantId);
  const everyone = (settings.completionMailRecipients ?? 'everyone') === 'everyone';
  const linkDays = settings.completedLinkDays ?? DEFAULT_COMPLETED_LINK_DAYS;
  const participants = (await completionParticipants(tx, epak)).filter((person) => everyone || person.userId === epak.ownerId);
  if (participants.length === 0) return;
  const current = await currentDocumentsAsAttachments(tx, epak.id);
  const attach = current.encodedSize <= (options.mailAttachmentLimitBytes ?? MAIL_ATTACHMENT_LIMIT_BYTES);
  for (const person of participants) {
    const place =
      person.recipientId === null
        ? { link: appLink(options.publicUrl, epak), expiresAt: null }
        : await placeLinkFor(tx, { ...options, linkDays, tenantId: epak.tenantId }, { recipientId: person.recipientId, userId: person.userId });
    await queueEmail({
      db: tx,
      tenantId: epak.tenantId,
      to: person.email,
      subject: `Completed: ${epak.subject}`,
      body: [
        `Hello ${displayName(person)},`,
        '',
        `Everyone has acted on "${epak.subject}": it is complete. The signed documents:`,
        ...current.names.map((name) => `- ${name}`),
        '',
        attach
          ? 'They are attached as signed.'
          : 'They are too large to attach to an email, so they are not attached: download them with the link below.',
        'The certificate of completion (who took part, and the whole activity log, sealed) is made just after the end: download it from the same page.',
        '',
        `Open it here: ${place.link}`,
        ...(place.expiresAt ? [`This link opens the completed ePak, to read and download, until ${formatUtcTimestamp(place.expiresAt)}.`] : []),
        '',
        'Pakt',
      ].join('\n'),
      kind: 'epak_completed',
      ...(attach ? { attachments: current.attachments } : {}),
    });
  }
}

/**
 * Queues what each engine effect asks for; called in the transaction that stores the answer.
 * `actorId` names who acted in the owner's mail (a rejection says who rejected).
 * `mailAttachmentLimitBytes` is a test seam (default MAIL_ATTACHMENT_LIMIT_BYTES).
 */
export async function queueEngineEffects(
  tx: Db,
  options: NotifyOptions & {
    effects: readonly EngineEffect[];
    actorId?: string;
    actorName?: string;
    comment?: string | undefined;
    /** Whose `comment` it is when it is not a rejection's: the owner gets it as a notification (record.ts). */
    commentBy?: 'signer' | 'reviewer';
    mailAttachmentLimitBytes?: number;
  },
): Promise<void> {
  const [epak] = await tx.select().from(epaks).where(eq(epaks.id, options.epakId));
  if (!epak) return;
  if (options.actorId && !options.actorName) {
    const [actor] = await tx.select().from(users).where(eq(users.id, options.actorId));
    if (actor) options = { ...options, actorName: displayName(actor) };
  }
  for (const effect of options.effects) {
    switch (effect.type) {
      case 'notifyStep':
        if (effect.stepType === 'INPERSONSIGN') {
          // Signed on the host's device: the host is told who is to sign with them.
          const people = await recipientsById(tx, effect.recipientIds);
          await mailOwner(tx, epak, options, 'epak_inperson_request', `Sign in person: ${epak.subject}`, [
            `"${epak.subject}" now waits for ${people.map(displayName).join(', ')} to sign in person.`,
            'Open it with them present, confirm their identity with the code they receive, and hand them your device.',
          ]);
          break;
        }
        await notifyRecipients(tx, { ...options, recipientIds: effect.recipientIds, kind: effect.stepType === 'REVIEW' ? 'review_request' : 'sign_request' });
        break;
      case 'mailDocuments': {
        // EMAIL-step recipients get the current documents attached, and a link to them as well
        // (internal: the app; external: a link that opens the ePak read-only). Too large for a
        // mail, the link alone.
        const current = await currentDocumentsAsAttachments(tx, epak.id);
        const attach = current.encodedSize <= (options.mailAttachmentLimitBytes ?? MAIL_ATTACHMENT_LIMIT_BYTES);
        const sender = await ownerOf(tx, epak);
        for (const person of await recipientsById(tx, effect.recipientIds)) {
          const link = await linkFor(tx, { ...options, tenantId: epak.tenantId }, person);
          await queueEmail({
            db: tx,
            tenantId: epak.tenantId,
            to: person.email,
            subject: `Documents: ${epak.subject}`,
            body: [
              `Hello ${displayName(person)},`,
              '',
              `${sender} shares the documents of "${epak.subject}" with you:`,
              ...current.names.map((name) => `- ${name}`),
              '',
              attach
                ? 'They are attached as they stand now.'
                : 'They are too large to attach to an email, so they are not attached: open them with the link below.',
              '',
              `Open them here: ${link}`,
              '',
              'Pakt',
            ].join('\n'),
            kind: 'epak_documents',
            ...(attach ? { attachments: current.attachments } : {}),
          });
        }
        break;
      }
      case 'completed':
        await queueCompletionMail(tx, epak, options);
        break;
      case 'rejected':
        await mailOwner(tx, epak, options, 'epak_rejected', `Rejected: ${epak.subject}`, [
          `${options.actorName ?? 'A recipient'} rejected "${epak.subject}".`,
          ...(options.comment ? ['', `Comment: ${options.comment}`] : []),
        ]);
        break;
      case 'stopped':
      case 'expired':
        await mailOwner(tx, epak, options, `epak_${effect.type}`, `${effect.type === 'stopped' ? 'Stopped' : 'Expired'}: ${epak.subject}`, [
          `"${epak.subject}" has ${effect.type === 'stopped' ? 'been stopped' : 'expired'}; nobody can act on it any more.`,
        ]);
        break;
    }
  }
  // The in-app notifications of the same effects, in the same transaction (and NOTIFY at its commit).
  await recordNotifications(tx, {
    epakId: epak.id,
    effects: options.effects,
    actorId: options.actorId,
    actorName: options.actorName,
    comment: options.comment,
    commentBy: options.commentBy,
  });
}
