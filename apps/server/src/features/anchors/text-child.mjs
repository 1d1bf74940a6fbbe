// @ts-check
/**
 * Reads a stored document's text, and optionally its drawn lines, for anchor placement
 * (text-extraction.ts starts it through the documents sandbox: bounded heap, resident memory and
 * time). Everything here parses a file a stranger may have made, so none of it runs in the server:
 * pdf.js with eval off, no fonts loaded, no system fonts.
 *
 * Plain JavaScript (type-checked through JSDoc) like the upload sandbox's child: under the
 * TypeScript loader pdf.js alone takes seconds to load.
 *
 * It stops early, and says why, at the first of: `maxPages` pages, `deadlineMs` of work, or
 * `maxItems` text pieces / `maxChars` characters (so its answer stays far below what the parent
 * reads). Numbers are rounded to a thousandth of a point.
 *
 * Input: the job as JSON in argv[2]. Output: one JSON line on stdout (text-protocol.ts).
 */
import fs from 'node:fs';

/** @typedef {import('./text-protocol').TextJob} TextJob */
/** @typedef {import('./text-protocol').TextResult} TextResult */
/** @typedef {import('./text-protocol').PageText} PageText */
/** @typedef {[number, number, number, number, number, number]} Matrix */

/** Drawn lines per page at most: a page of hatching is not a form. */
const MAX_RULES_PER_PAGE = 2000;
/** A drawn line is at most this thick (points) and at least this long. */
const RULE_MAX_THICKNESS = 3;
const RULE_MIN_LENGTH = 24;

/** @param {number} value */
const round = (value) => Math.round(value * 1000) / 1000;

/**
 * @param {'invalid' | 'password' | 'tooLarge'} reason
 * @param {string} message
 */
const fail = (reason, message) => ({ ok: /** @type {const} */ (false), reason, message });

/**
 * @param {Matrix} m1
 * @param {Matrix} m2
 * @returns {Matrix}
 */
function multiply(m1, m2) {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

/**
 * @param {Matrix} m
 * @param {number} x
 * @param {number} y
 * @returns {[number, number]}
 */
function apply(m, x, y) {
  return [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];
}

/** @param {unknown} value */
function isMatrix(value) {
  return (Array.isArray(value) || ArrayBuffer.isView(value)) && /** @type {ArrayLike<unknown>} */ (value).length === 6 && Array.from(/** @type {ArrayLike<unknown>} */ (value)).every((n) => typeof n === 'number' && Number.isFinite(n));
}

/**
 * Thin, long painted paths in user space ([x0, y0, x1, y1], x0 <= x1, y0 <= y1): the lines and
 * thin rectangles a form draws to sign or write on. The current transformation is followed
 * through save/restore, cm and form XObjects; what a path looks like beyond its bounding box
 * does not matter here.
 * @param {{ fnArray: number[], argsArray: unknown[] }} operatorList
 * @param {Record<string, number>} OPS
 * @returns {[number, number, number, number][]}
 */
function drawnRules(operatorList, OPS) {
  /** @type {Matrix} */
  let ctm = [1, 0, 0, 1, 0, 0];
  /** @type {Matrix[]} */
  const stack = [];
  /** @type {[number, number, number, number][]} */
  const rules = [];
  const painted = new Set([OPS['stroke'], OPS['closeStroke'], OPS['fill'], OPS['eoFill'], OPS['fillStroke'], OPS['eoFillStroke'], OPS['closeFillStroke'], OPS['closeEOFillStroke']]);
  const { fnArray, argsArray } = operatorList;
  for (let i = 0; i < fnArray.length && rules.length < MAX_RULES_PER_PAGE; i++) {
    const fn = fnArray[i];
    const args = /** @type {unknown[] | null} */ (argsArray[i]);
    if (fn === OPS['save']) {
      if (stack.length < 10_000) stack.push(ctm);
    } else if (fn === OPS['restore']) {
      ctm = stack.pop() ?? ctm;
    } else if (fn === OPS['transform']) {
      if (args && isMatrix(args)) ctm = multiply(ctm, /** @type {Matrix} */ (Array.from(/** @type {number[]} */ (args))));
    } else if (fn === OPS['paintFormXObjectBegin']) {
      if (stack.length < 10_000) stack.push(ctm);
      const matrix = args?.[0];
      if (isMatrix(matrix)) ctm = multiply(ctm, /** @type {Matrix} */ (Array.from(/** @type {number[]} */ (matrix))));
    } else if (fn === OPS['paintFormXObjectEnd']) {
      ctm = stack.pop() ?? ctm;
    } else if (fn === OPS['constructPath']) {
      const paint = args?.[0];
      const minMax = /** @type {ArrayLike<number> | null | undefined} */ (args?.[2]);
      if (typeof paint !== 'number' || !painted.has(paint) || !minMax || minMax.length !== 4) continue;
      const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = Array.from(minMax);
      if (![x0, y0, x1, y1].every(Number.isFinite)) continue;
      const corners = [apply(ctm, x0, y0), apply(ctm, x1, y0), apply(ctm, x0, y1), apply(ctm, x1, y1)];
      const xs = corners.map((corner) => corner[0]);
      const ys = corners.map((corner) => corner[1]);
      /** @type {[number, number, number, number]} */
      const box = [round(Math.min(...xs)), round(Math.min(...ys)), round(Math.max(...xs)), round(Math.max(...ys))];
      const width = box[2] - box[0];
      const height = box[3] - box[1];
      if (!box.every(Number.isFinite)) continue;
      if (Math.min(width, height) <= RULE_MAX_THICKNESS && Math.max(width, height) >= RULE_MIN_LENGTH) rules.push(box);
    }
  }
  return rules;
}

/**
 * @param {TextJob} job
 * @returns {Promise<TextResult>}
 */
async function read(job) {
  const started = performance.now();
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let document;
  try {
    document = await pdfjs.getDocument({
      data: new Uint8Array(fs.readFileSync(job.input)),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') return fail('password', 'The PDF is protected by a password: its text cannot be read.');
    return fail('invalid', 'The file is not a readable PDF.');
  }
  try {
    /** @type {PageText[]} */
    const pages = [];
    /** @type {'pages' | 'time' | 'size' | null} */
    let truncated = null;
    let items = 0;
    let chars = 0;
    const last = Math.min(document.numPages, job.maxPages);
    // The text of every page first: it is what anchors and labels are.
    for (let number = 1; number <= last; number++) {
      if (performance.now() - started > job.deadlineMs) {
        truncated = 'time';
        break;
      }
      const page = await document.getPage(number);
      const content = await page.getTextContent({ includeMarkedContent: false });
      /** @type {PageText['items']} */
      const pieces = [];
      for (const item of content.items) {
        if (!('str' in item) || typeof item.str !== 'string' || item.str.trim() === '') continue;
        const numbers = [...item.transform, item.width, item.height];
        if (numbers.length !== 8 || !numbers.every((n) => typeof n === 'number' && Number.isFinite(n))) continue;
        const str = item.str.slice(0, 2000);
        const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, width = 0, height = 0] = numbers.map(round);
        pieces.push([str, a, b, c, d, e, f, width, height]);
        items += 1;
        chars += str.length;
      }
      page.cleanup();
      if (items > job.maxItems || chars > job.maxChars) {
        // This page does not fit: the answer stops before it.
        truncated = 'size';
        break;
      }
      pages.push({ items: pieces, rules: [] });
    }
    // Then the drawn lines, page by page while time remains: a help beside the underscores, and
    // slower to read (it decodes images), so they never cost a page its text.
    if (job.lines) {
      for (let number = 1; number <= pages.length; number++) {
        if (performance.now() - started > job.deadlineMs) break;
        const page = await document.getPage(number);
        const operatorList = /** @type {{ fnArray: number[], argsArray: unknown[] }} */ (await page.getOperatorList());
        pages[number - 1] = { items: pages[number - 1]?.items ?? [], rules: drawnRules(operatorList, /** @type {Record<string, number>} */ (/** @type {unknown} */ (pdfjs.OPS))) };
        page.cleanup();
      }
    }
    if (!truncated && last < document.numPages) truncated = 'pages';
    return { ok: true, pageCount: document.numPages, pages, truncated };
  } finally {
    await document.destroy();
  }
}

/**
 * Writes the answer and ends once it has gone out: a pipe takes a large write in pieces, and
 * exiting straight after write() would cut the answer at the pipe's buffer (64 KB).
 * @param {unknown} answer
 */
function answerAndExit(answer) {
  process.stdout.write(`${JSON.stringify(answer)}\n`, () => process.exit(0));
}

read(/** @type {TextJob} */ (JSON.parse(process.argv[2] ?? '{}')))
  .then(answerAndExit)
  .catch((/** @type {unknown} */ error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    answerAndExit(fail('invalid', 'The file could not be read.'));
  });
