import { createHash } from 'node:crypto';
import { type PageGeometry, toPdfUserSpace } from '@pakt/domain';
import type { PdfBox } from '../../platform/pdf/pdf-file';
import { shownSizeOfRect, textAppearance, type Rotation } from '../../platform/sealing/appearance';
import { qrPng } from '../../platform/sealing/qr-image';
import type { FieldRequest } from '../../platform/sealing/seal';
import type { KeyVault } from '../../platform/signing/key-vault';
import { documentRecordToken, recordUrl } from './verification-record';

/**
 * A document's stamp line (issue 20; tenant setting documentQrStamp): drawn by the first signature
 * on the document, in the lower left corner of its first page, as two read-only fields of that
 * revision: the QR code of the document's public record, and its address written out. What it
 * names is the document as composed (the file that holds it is not final yet); the record it opens
 * gives the final SHA-256.
 */

const QR_SIDE = 44;
const INSET = 8;
const TEXT = { width: 300, height: 18 };

/** The stamp line's fields for a first signature, or none on a page too small to take it. */
export function stampLineFields(options: { pages: readonly PageGeometry[]; source: Buffer; epakId: string; publicUrl: string; vault: KeyVault }): FieldRequest[] {
  const page = options.pages[0];
  if (!page || page.width < QR_SIDE + TEXT.width / 2 || page.height < QR_SIDE + 2 * INSET) return [];
  const link = recordUrl(options.publicUrl, documentRecordToken(options.vault, options.epakId, createHash('sha256').update(options.source).digest('hex')));
  // In the page's own frame (y from the top, before /Rotate): the lower left corner.
  const qrRect = toPdfUserSpace({ x: INSET, y: page.height - INSET - QR_SIDE, width: QR_SIDE, height: QR_SIDE }, page) as PdfBox;
  const textWidth = Math.min(TEXT.width, page.width - QR_SIDE - 3 * INSET);
  const textRect = toPdfUserSpace({ x: 2 * INSET + QR_SIDE, y: page.height - INSET - TEXT.height, width: textWidth, height: TEXT.height }, page) as PdfBox;
  const rotate = page.rotate as Rotation;
  return [
    { kind: 'image', pageIndex: 0, rect: qrRect, fieldName: 'Pakt verification QR', image: { format: 'png', data: qrPng(link, 4) } },
    {
      kind: 'text',
      pageIndex: 0,
      rect: textRect,
      fieldName: 'Pakt verification address',
      value: link,
      appearance: textAppearance({ ...shownSizeOfRect(textRect, rotate), rotate, lines: ['Signed with Pakt. Verify this document at', link], fontSize: 6 }),
    },
  ];
}
