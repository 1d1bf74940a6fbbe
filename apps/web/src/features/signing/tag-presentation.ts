import { displayName, isFilledValue, isRequiredTag, isTagFor, type EpakDetail, type Tag, type TagValue } from '@pakt/domain';
import type { TFunction } from 'i18next';
import type { TagPresentation } from './signing-tag';
import { valueKindOf } from './signing-tags';

/** How a tag shows on the signer's page, from whose it is and where it stands. */
export function presentationOf(tag: Tag, state: { own: boolean; editable: boolean; documentSigned: boolean; filled: boolean }): TagPresentation {
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

/** The name of the recipient a tag belongs to, as the ePak's recipient list knows them. */
export function ownerNameOf(epak: EpakDetail, tag: Tag): string | null {
  if (!tag.userEmail) return null;
  for (const step of epak.steps) {
    const recipient = step.recipients.find((candidate) => isTagFor(tag, { email: candidate.email, stepOrder: step.order }));
    if (recipient) return displayName(recipient);
  }
  return tag.userEmail;
}

export function placeholderOf(t: TFunction, tag: Tag, presentation: TagPresentation, ownerName: string | null): string {
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

/** What a screen reader hears for a tag: whose it is, on which page, required, filled. */
export function tagLabelOf(t: TFunction, tag: Tag, state: { own: boolean; editable: boolean; value: TagValue; ownerName: string | null }): string {
  const typeName = t(`tagEditor.types.${tag.type}`);
  const status = [isRequiredTag(tag) ? t('signing.tag.required') : null, state.editable && isFilledValue(state.value) ? t('signing.tag.filled') : null].filter(Boolean).join(', ');
  const whose = state.own
    ? t('signing.tag.own', { type: typeName, page: tag.pageNumber })
    : t('signing.tag.others', { type: typeName, name: state.ownerName ?? t('signing.tag.someone'), page: tag.pageNumber });
  return [whose, status].filter(Boolean).join(', ');
}
