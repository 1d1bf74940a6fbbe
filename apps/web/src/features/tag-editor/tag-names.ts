import { isRubberStamp, type Tag, type TagType } from '@pakt/domain';
import type { TFunction } from 'i18next';

/** A tag type's name, as the palette shows it. */
export const tagTypeName = (t: TFunction, type: TagType): string => t(`tagEditor.types.${type}`);

/** A rubber stamp is an image tag of its own kind (issue 8): named as what it is. */
export const tagName = (t: TFunction, tag: Pick<Tag, 'type' | 'subType'>): string =>
  isRubberStamp(tag) ? t('rubberStamps.chooser.stampTag') : tagTypeName(t, tag.type);
