import {
  displayName,
  flattenTags,
  isSignatureTag,
  isTagFor,
  SIGNING_STATE_TYPES,
  validateTagLayout,
  type EpakDetail,
  type Tag,
} from '@pakt/domain';

/**
 * What still keeps a draft from being sent, worked out from its saved fields before the server
 * is asked, so "review and send" can say it and lead to the step that fixes it. The server checks
 * the same on start (-62 a signer without a signature field, -49 a signature without its reason,
 * -107 a signature field for someone who does not sign, -6 a placement rule); its answer still
 * wins, this list only spares the person a refusal they could have seen coming.
 */
export type MissingItem =
  | { readonly kind: 'signatureField'; readonly email: string; readonly name: string; readonly stepOrder: number }
  | { readonly kind: 'reasonField'; readonly email: string | null; readonly name: string | null; readonly documentName: string }
  | { readonly kind: 'notInWorkflow'; readonly email: string }
  | { readonly kind: 'unassigned'; readonly count: number }
  | { readonly kind: 'layout'; readonly documentName: string; readonly count: number };

/** The tags of each document of the draft, by the ePak's document id. */
export type DraftTags = ReadonlyMap<string, readonly Tag[]>;

interface Signer {
  readonly email: string;
  readonly name: string;
  readonly stepOrder: number;
}

function signersOf(epak: Pick<EpakDetail, 'steps'>): Signer[] {
  return epak.steps
    .filter((step) => (SIGNING_STATE_TYPES as readonly string[]).includes(step.type))
    .flatMap((step) => step.recipients.map((recipient) => ({ email: recipient.email, name: displayName(recipient), stepOrder: step.order })));
}

const emailOf = (tag: Pick<Tag, 'userEmail'>) => tag.userEmail?.trim().toLowerCase() || null;

export function missingForSend(epak: Pick<EpakDetail, 'steps' | 'documents' | 'signingPolicy'>, tags: DraftTags): MissingItem[] {
  const signers = signersOf(epak);
  const allSignatures = epak.documents.flatMap((document) => flattenTags(tags.get(document.documentId) ?? [])).filter(isSignatureTag);
  const items: MissingItem[] = [];

  for (const signer of signers) {
    if (!allSignatures.some((tag) => isTagFor(tag, signer))) items.push({ kind: 'signatureField', ...signer });
  }
  const strangers = new Set<string>();
  let unassigned = 0;
  for (const tag of allSignatures) {
    const email = emailOf(tag);
    if (email === null) unassigned += 1;
    else if (!signers.some((signer) => isTagFor(tag, signer))) strangers.add(email);
  }
  for (const email of strangers) items.push({ kind: 'notInWorkflow', email });
  if (unassigned > 0) items.push({ kind: 'unassigned', count: unassigned });

  // The placement rules of the policy, document by document, as the server runs them on start.
  for (const document of epak.documents) {
    const documentTags = tags.get(document.documentId) ?? [];
    const problems = validateTagLayout({ tags: documentTags, pages: document.pages, policy: epak.signingPolicy });
    const flat = flattenTags(documentTags);
    for (const problem of problems.filter((candidate) => candidate.messageKey === 'reasonTagNotSelected')) {
      const tag = flat.find((candidate) => candidate.uuid === problem.tagUuid);
      const email = tag ? emailOf(tag) : null;
      const signer = tag ? signers.find((candidate) => isTagFor(tag, candidate)) : undefined;
      items.push({ kind: 'reasonField', email, name: signer?.name ?? email, documentName: document.name });
    }
    const others = new Set(problems.filter((problem) => problem.messageKey !== 'reasonTagNotSelected').map((problem) => problem.tagUuid));
    if (others.size > 0) items.push({ kind: 'layout', documentName: document.name, count: others.size });
  }
  return items;
}
