import '@fontsource/kalam/400.css';

/**
 * Signature images made in the browser: a typed name drawn in a handwriting font, and a drawn
 * signature cut to its ink. Both become PNG data URLs with a transparent background, which the
 * server stamps into the signature's box as they are.
 *
 * Kalam is a handwriting face with Latin and Devanagari, so a Hindi name types as nicely as an
 * English one; it ships with the app (no font service is asked).
 */
export const SIGNATURE_FONT_FAMILY = 'Kalam';
export const SIGNATURE_FONT = `"${SIGNATURE_FONT_FAMILY}", "Segoe Script", "Bradley Hand", cursive`;
export const SIGNATURE_INK = '#1b2a6b';

/** Height of the drawn text in CSS px: large enough to stay sharp when the server scales it down. */
const TYPED_FONT_PX = 72;
const PADDING_PX = 12;

/** A canvas's 2D context, or null where there is none (jsdom; a browser with canvas disabled). */
function context(canvas: HTMLCanvasElement): CanvasRenderingContext2D | null {
  try {
    return canvas.getContext('2d');
  } catch {
    return null;
  }
}

/** The name drawn in the signature font, as a PNG data URL just large enough for it. */
export async function renderTypedSignature(text: string): Promise<string> {
  const font = `${TYPED_FONT_PX}px ${SIGNATURE_FONT}`;
  try {
    // Until the face is loaded the canvas would draw the fallback font without a word.
    await document.fonts.load(font, text);
  } catch {
    // The fallbacks in SIGNATURE_FONT still draw a legible name.
  }
  const canvas = document.createElement('canvas');
  const measure = context(canvas);
  if (!measure) throw new Error('This browser cannot draw images');
  measure.font = font;
  const metrics = measure.measureText(text);
  const ascent = Math.ceil(metrics.actualBoundingBoxAscent || TYPED_FONT_PX * 0.8);
  const descent = Math.ceil(metrics.actualBoundingBoxDescent || TYPED_FONT_PX * 0.3);
  const left = Math.ceil(metrics.actualBoundingBoxLeft || 0);
  const width = Math.ceil((metrics.actualBoundingBoxRight || metrics.width) + left);
  canvas.width = Math.max(1, width + 2 * PADDING_PX);
  canvas.height = Math.max(1, ascent + descent + 2 * PADDING_PX);
  // Resizing a canvas resets its state, so the font is set again before drawing.
  const draw = context(canvas)!;
  draw.font = font;
  draw.fillStyle = SIGNATURE_INK;
  draw.textBaseline = 'alphabetic';
  draw.fillText(text, PADDING_PX + left, PADDING_PX + ascent);
  return canvas.toDataURL('image/png');
}

/**
 * A drawn signature cut to the box around its ink (plus a little margin), so it fills the tag's
 * box instead of sitting small in one corner of the drawing area. Null when nothing was drawn.
 */
export function trimmedSignature(source: HTMLCanvasElement): string | null {
  const read = context(source);
  if (!read || source.width === 0 || source.height === 0) return null;
  const { data, width, height } = read.getImageData(0, 0, source.width, source.height);
  let top = height;
  let bottom = -1;
  let left = width;
  let right = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3]! === 0) continue;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      if (x < left) left = x;
      if (x > right) right = x;
    }
  }
  if (bottom < 0) return null;
  const margin = 4;
  const x = Math.max(0, left - margin);
  const y = Math.max(0, top - margin);
  const w = Math.min(width, right + margin + 1) - x;
  const h = Math.min(height, bottom + margin + 1) - y;
  const out = document.createElement('canvas');
  out.width = w;
  out.height = h;
  context(out)!.drawImage(source, x, y, w, h, 0, 0, w, h);
  return out.toDataURL('image/png');
}
