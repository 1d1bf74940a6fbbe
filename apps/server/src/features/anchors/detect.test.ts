import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';
import { fromPdfUserSpace, type PageGeometry, pageToDisplay, type Rect, shownSize } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import {
  anchorType,
  characterOffsets,
  type ConfiguredString,
  findAnchorsOnPage,
  findSignatureLinesOnPage,
  type Found,
  inShownOrder,
  pageFrameToTurned,
  pageLines,
  readingDimensions,
} from './detect';
import type { PageText, TextPiece } from './text-protocol';

/**
 * The finding on its own: pieces of text as pdf.js gives them (string, matrix, advance, height),
 * laid out here in Helvetica so where each character falls is known exactly.
 */

const helvetica = Font.load(FontNames.Helvetica);
const widthOf = (text: string, size: number) =>
  [...text].reduce((sum, char) => {
    const code = char.codePointAt(0)!;
    const name = Encodings.WinAnsi.canEncodeUnicodeCodePoint(code) ? Encodings.WinAnsi.encodeUnicodeCodePoint(code).name : 'space';
    return sum + (helvetica.getWidthOfGlyph(name) ?? 556);
  }, 0) * (size / 1000);

const A4: PageGeometry = { x: 0, y: 0, width: 595, height: 842, rotate: 0 };

/** Text whose baseline starts at (x, y) in user space, turned `degrees` counter-clockwise as pdf-lib's rotate does. */
function piece(str: string, x: number, y: number, options: { size?: number; degrees?: number; width?: number } = {}): TextPiece {
  const size = options.size ?? 12;
  const radians = ((options.degrees ?? 0) * Math.PI) / 180;
  const cos = Math.round(Math.cos(radians) * 1e9) / 1e9;
  const sin = Math.round(Math.sin(radians) * 1e9) / 1e9;
  return [str, size * cos, size * sin, -size * sin, size * cos, x, y, options.width ?? widthOf(str, size), size];
}

const page = (items: TextPiece[], rules: PageText['rules'] = []): PageText => ({ items, rules });

function anchors(text: PageText, geometry: PageGeometry = A4, configured: ConfiguredString[] = []) {
  return findAnchorsOnPage(pageLines(text, geometry), geometry, 1, configured);
}

function lines(text: PageText, geometry: PageGeometry = A4): Found[] {
  return findSignatureLinesOnPage(pageLines(text, geometry), geometry, 1, text.rules);
}

/** Where a piece's text [from, to) is in the page frame, measured the way the tests lay it out. */
function expectedBox(x: number, y: number, before: string, matched: string, size = 12, geometry: PageGeometry = A4): Rect {
  const left = x + widthOf(before, size);
  return fromPdfUserSpace([left, y - 0.22 * size, left + widthOf(matched, size), y + 0.78 * size], geometry);
}

const close = (actual: Rect, expected: Rect, digits = 3) => {
  expect(actual.x).toBeCloseTo(expected.x, digits);
  expect(actual.y).toBeCloseTo(expected.y, digits);
  expect(actual.width).toBeCloseTo(expected.width, digits);
  expect(actual.height).toBeCloseTo(expected.height, digits);
};

const configured = (text: string, over: Partial<ConfiguredString> = {}): ConfiguredString => ({ text, type: 'signature', placement: 'right', offsetX: 0, offsetY: 0, ...over });

describe('frames', () => {
  it('turns points exactly as the editor draws rectangles (pageToDisplay)', () => {
    for (const rotate of [0, 90, 180, 270] as const) {
      const geometry = { ...A4, rotate };
      const point = { x: 123.5, y: 456.25 };
      const shown = pageToDisplay({ ...point, width: 0, height: 0 }, geometry, 1);
      expect(pageFrameToTurned(point, geometry, rotate)).toEqual({ x: shown.x, y: shown.y });
    }
  });

  it('spreads a piece over its advance by Helvetica widths', () => {
    const offsets = characterOffsets('Wi_');
    const total = widthOf('Wi_', 1);
    expect(offsets[0]).toBe(0);
    expect(offsets[1]).toBeCloseTo(widthOf('W', 1) / total);
    expect(offsets[2]).toBeCloseTo(widthOf('Wi', 1) / total);
    expect(offsets[3]).toBe(1);
  });

  it('gives a type its size as the page shows it, in any reading frame', () => {
    expect(readingDimensions('signature', 0, 0)).toMatchObject({ width: 150, height: 50 });
    // Text upright on a page turned a quarter: the reading frame is what the viewer shows.
    expect(readingDimensions('signature', 90, 90)).toMatchObject({ width: 150, height: 50 });
    // Text left sideways by a /Rotate: along that text the box is tall and narrow.
    expect(readingDimensions('signature', 90, 0)).toMatchObject({ width: 50, height: 150, minWidth: 20, maxWidth: 200 });
  });
});

describe('anchor strings', () => {
  it('puts the tag where {{signature:signer1}} starts, at the type\'s size, for signer 1', () => {
    const { found, unrecognised } = anchors(page([piece('{{signature:signer1}}', 72, 700)]));
    expect(unrecognised).toEqual([]);
    expect(found).toHaveLength(1);
    const [one] = found;
    expect(one).toMatchObject({ type: 'signature', kind: 'signature', source: 'anchor', confidence: 1, signerSlot: 1, text: '{{signature:signer1}}' });
    const box = expectedBox(72, 700, '', '{{signature:signer1}}');
    close(one!.anchorBox, box);
    close(one!.rect, { x: box.x, y: box.y, width: 150, height: 50 });
  });

  it('finds an anchor inside a longer piece of text, in any case, with spaces, and split over pieces', () => {
    const before = 'Please sign here ';
    const inside = anchors(page([piece(`${before}{{ Signature : Signer2 }} thank you`, 50, 400)]));
    expect(inside.found).toHaveLength(1);
    expect(inside.found[0]).toMatchObject({ type: 'signature', signerSlot: 2 });
    close(inside.found[0]!.anchorBox, expectedBox(50, 400, before, '{{ Signature : Signer2 }}'));

    const split = anchors(page([piece('{{calendar:', 100, 300), piece('signer3}}', 100 + widthOf('{{calendar:', 12), 300)]));
    expect(split.found).toHaveLength(1);
    expect(split.found[0]).toMatchObject({ type: 'calendar', kind: 'date', signerSlot: 3 });
    close(split.found[0]!.anchorBox, expectedBox(100, 300, '', '{{calendar:signer3}}'));
  });

  it('knows the aliases, leaves an anchor without a signer for nobody, and reports names that are no tag type', () => {
    expect(anchorType('DATE')).toBe('calendar');
    expect(anchorType('initials')).toBe('userInitial');
    expect(anchorType('textarea')).toBe('textArea');
    const { found, unrecognised } = anchors(page([piece('{{date}}', 72, 600), piece('{{initials:signer1}}', 72, 500), piece('{{stamp:signer1}}', 72, 400), piece('{{text:signer2}}', 72, 300)]));
    expect(found.map((item) => [item.type, item.kind, item.signerSlot])).toEqual([
      ['calendar', 'date', null],
      ['userInitial', 'signature', 1],
      ['text', 'field', 2],
    ]);
    expect(unrecognised).toEqual(['{{stamp:signer1}}']);
  });

  it('places configured strings right of, below or over each occurrence, with offsets, and counts them', () => {
    const text = page([piece('Signature:', 72, 700), piece('Buyer SIGNATURE:', 300, 700), piece('Signed  by', 72, 500)]);
    const result = anchors(text, A4, [
      configured('signature:'),
      configured('signed by', { placement: 'below', type: 'username', signer: 2 }),
      configured('by', { placement: 'over', offsetX: 5, offsetY: -3, type: 'text' }),
      configured('nowhere'),
    ]);
    expect(result.configuredCounts).toEqual([2, 1, 1, 0]);
    const [first, second, signedBy, over] = result.found;
    const label = expectedBox(72, 700, '', 'Signature:');
    close(first!.anchorBox, label);
    // Right of it, centred on its line.
    close(first!.rect, { x: label.x + label.width + 3.6, y: label.y + label.height / 2 - 25, width: 150, height: 50 });
    expect(second).toMatchObject({ text: 'SIGNATURE:', source: 'configured', confidence: 1 });
    const signed = expectedBox(72, 500, '', 'Signed  by');
    close(signedBy!.rect, { x: signed.x, y: signed.y + signed.height + 2.4, width: 150, height: 20 });
    expect(signedBy).toMatchObject({ type: 'username', signerSlot: 2, kind: 'field' });
    const by = expectedBox(72, 500, 'Signed  ', 'by');
    close(over!.rect, { x: by.x + 5, y: by.y - 3, width: 120, height: 20 });
  });

  it('matches a page turned a quarter whose text reads upright: the tag shows upright, where the anchor shows', () => {
    for (const rotate of [90, 180, 270] as const) {
      const geometry: PageGeometry = { ...A4, rotate };
      // pdf-lib draws text upright on a turned page by turning it back (counter-clockwise) by as much.
      const { found } = anchors(page([piece('{{signature:signer1}}', 300, 300, { degrees: rotate })]), geometry);
      expect(found, `rotate ${rotate}`).toHaveLength(1);
      const shownTag = pageToDisplay(found[0]!.rect, geometry, 1);
      const shownAnchor = pageToDisplay(found[0]!.anchorBox, geometry, 1);
      // As the viewer shows it: a 150 x 50 box from the anchor's top-left corner.
      expect(shownTag.width).toBeCloseTo(150);
      expect(shownTag.height).toBeCloseTo(50);
      expect(shownTag.x).toBeCloseTo(shownAnchor.x);
      expect(shownTag.y).toBeCloseTo(shownAnchor.y);
      expect(shownAnchor.width).toBeCloseTo(widthOf('{{signature:signer1}}', 12));
      expect(shownAnchor.height).toBeCloseTo(12);
      // Stored in the page frame, unrotated: its sides swap on a quarter turn.
      expect({ width: found[0]!.rect.width, height: found[0]!.rect.height }).toEqual(shownSize({ width: 150, height: 50 }, rotate));
    }
  });

  it('reads text a /Rotate left sideways in its own frame, and still gives the tag its size as shown', () => {
    const geometry: PageGeometry = { ...A4, rotate: 90 };
    const { found } = anchors(page([piece('{{signature:signer1}}', 100, 600)]), geometry);
    expect(found).toHaveLength(1);
    close(found[0]!.anchorBox, expectedBox(100, 600, '', '{{signature:signer1}}'));
    const shown = pageToDisplay(found[0]!.rect, geometry, 1);
    expect(shown.width).toBeCloseTo(150);
    expect(shown.height).toBeCloseTo(50);
  });

  it('measures from a crop box that does not start at the origin', () => {
    const cropped: PageGeometry = { x: 50, y: 60, width: 400, height: 500, rotate: 0 };
    const { found } = anchors(page([piece('Crop {{calendar:signer1}}', 100, 300)]), cropped);
    const box = found[0]!.anchorBox;
    close(box, expectedBox(100, 300, 'Crop ', '{{calendar:signer1}}', 12, cropped));
    expect(box.x).toBeCloseTo(50 + widthOf('Crop ', 12));
    expect(box.y).toBeCloseTo(60 + 500 - 300 - 0.78 * 12);
  });

  it('keeps a tag inside its page when the anchor sits at the edge', () => {
    const { found } = anchors(page([piece('{{signature}}', 560, 20)]));
    const rect = found[0]!.rect;
    expect(rect.x + rect.width).toBeLessThanOrEqual(595);
    expect(rect.y + rect.height).toBeLessThanOrEqual(842);
    expect(rect.width).toBe(150);
  });
});

describe('signature lines', () => {
  it('stands a signature tag on the underscores after "Signature:", and a date tag after "Date"', () => {
    const found = lines(page([piece('Signature: ____________', 72, 700), piece('Date ________', 72, 650)]));
    expect(found).toHaveLength(2);
    const [signature, date] = inShownOrder(found, [A4]);
    const run = expectedBox(72, 700, 'Signature: ', '____________');
    expect(signature).toMatchObject({ type: 'signature', kind: 'signature', source: 'signatureLine', confidence: 0.95, text: 'Signature', signerSlot: null });
    // On the line (its baseline, 142 from the top), as wide as it.
    close(signature!.rect, { x: run.x, y: 842 - 700 - 50, width: run.width, height: 50 });
    expect(date).toMatchObject({ type: 'calendar', kind: 'date', confidence: 0.9, text: 'Date' });
    // Eight underscores are 53 pt: the date tag keeps its type's smallest width, 60.
    close(date!.rect, { x: 72 + widthOf('Date ', 12), y: 842 - 650 - 20, width: 60, height: 20 });
  });

  it('finds lines with their label under them, side by side, and one with its label over it', () => {
    const found = lines(
      page([
        piece('________________', 72, 500),
        piece('________________', 320, 500),
        piece('Signature of the Buyer', 72, 486, { size: 10 }),
        piece('Date', 320, 486, { size: 10 }),
        piece('Authorised Signatory', 72, 300),
        piece('____________________', 72, 280),
      ]),
    );
    const shown = inShownOrder(found, [A4]);
    expect(shown.map((item) => [item.type, item.text, item.confidence])).toEqual([
      ['signature', 'Signature', 0.8],
      ['calendar', 'Date', 0.8],
      ['signature', 'Signatory', 0.7],
    ]);
    expect(shown[1]!.rect.x).toBeCloseTo(320);
  });

  it('takes a drawn line beside a label, but not a line that underlines text', () => {
    const found = lines(
      page([piece('Witness signature', 72, 400), piece('Signature', 72, 200)], [
        [190, 398, 340, 398],
        // Under "Signature" itself: an underline, not a place to sign.
        [72, 198, 72 + widthOf('Signature', 12), 198.5],
      ]),
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'signature', confidence: 0.85 });
    close(found[0]!.rect, { x: 190, y: 842 - 398 - 50, width: 150, height: 50 });
    close(found[0]!.anchorBox, { x: 190, y: 842 - 398, width: 150, height: 0 });
  });

  it('suggests after a label with a colon and nothing else on its line, at lower confidence', () => {
    const found = lines(page([piece('Signed:', 72, 300)]));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'signature', confidence: 0.5 });
    expect(found[0]!.rect.x).toBeGreaterThan(72 + widthOf('Signed:', 12));
  });

  it('leaves prose alone: a sentence that mentions signing is no label', () => {
    expect(lines(page([piece('Both parties sign this agreement on the date written below: ____________', 40, 600, { size: 10 })]))).toEqual([]);
    expect(lines(page([piece('Signature', 72, 600), piece('The signature is binding on both parties.', 72, 560)]))).toEqual([]);
  });

  it('reads the Hindi labels, the i-matra in visual order included', () => {
    const found = lines(
      page([
        piece('हस्ताक्षर', 72, 700, { width: 45 }),
        piece('______________', 130, 700),
        // दिनांक as some PDFs extract it: the i-matra before its consonant.
        piece('िदनांक:', 72, 650, { width: 36 }),
        piece('..........', 120, 650),
        piece('तारीख', 300, 650, { width: 30 }),
        piece('________', 340, 650),
      ]),
    );
    const shown = inShownOrder(found, [A4]);
    expect(shown.map((item) => [item.type, item.text])).toEqual([
      ['signature', 'हस्ताक्षर'],
      // Named as it is read, though extracted in visual order.
      ['calendar', 'दिनांक'],
      ['calendar', 'तारीख'],
    ]);
    expect(shown[0]!.rect.x).toBeCloseTo(130);
  });

  it('keeps one suggestion where two would overlap: the surest', () => {
    // Lines 10 pt apart: the date tag standing on the lower line would reach into the signature's.
    const found = lines(page([piece('Signature: ______________', 72, 700), piece('Date: ______________', 72, 690)]));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'signature', confidence: 0.95 });
  });
});

describe('order', () => {
  it('lists what was found page by page, top to bottom and left to right as shown', () => {
    const at = (pageNumber: number, x: number, y: number): Found => ({
      pageNumber,
      rect: { x, y, width: 10, height: 10 },
      anchorBox: { x, y, width: 10, height: 10 },
      type: 'signature',
      source: 'anchor',
      kind: 'signature',
      confidence: 1,
      text: `${pageNumber}:${x},${y}`,
      signerSlot: null,
    });
    const turned: PageGeometry = { ...A4, rotate: 90 };
    const sorted = inShownOrder([at(2, 0, 0), at(1, 300, 100), at(1, 50, 100), at(1, 50, 20), at(2, 0, 500)], [A4, turned]);
    // On the turned page, page-frame y runs right to left as shown: y 500 shows left of y 0.
    expect(sorted.map((item) => item.text)).toEqual(['1:50,20', '1:50,100', '1:300,100', '2:0,500', '2:0,0']);
  });
});
