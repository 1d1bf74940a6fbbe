import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fileURLToPath } from 'node:url';
import { getEpak, getSignatureBlocks } from '@pakt/domain';
import { callData } from './api';
import { apiHeadersOf, bundles, capture, clickOnPageAt, composeGoTo, composeNextTo, composeSaveStatus, composeStep, fieldLabelled, openComposeStep, signUpAndConfirm } from './support';

const { en } = bundles;
const compose = en.compose;
const editor = en.tagEditor;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const ROTATED = 'rotate-0-90-180-270-arabic.pdf';
const MIXED = 'mixed-sizes-openoffice.pdf';

const withNumber = (text: string, number: number) => text.replace('{{number}}', String(number));
const step = (page: Page, number: number) =>
  page.getByRole('form', { name: compose.title }).getByRole('group', { name: withNumber(en.workflows.form.step, number), exact: true });

interface PageGeometry {
  width: number;
  height: number;
  rotate: 0 | 90 | 180 | 270;
}
interface EpakDocument {
  documentId: string;
  name: string;
  pages: PageGeometry[];
}

type FieldType = 'signature' | 'calendar' | 'text' | 'qrcode';

/**
 * The size each field starts at, in points, written out here rather than taken from the app so
 * the journey checks the app's geometry instead of repeating it.
 */
const DEFAULT_SIZE: Record<FieldType, { width: number; height: number }> = {
  signature: { width: 150, height: 50 },
  calendar: { width: 100, height: 20 },
  text: { width: 120, height: 20 },
  qrcode: { width: 80, height: 80 },
};

/**
 * Where a field of `size` as shown (a signature shows 150 x 50 on every page, turned or not)
 * whose shown top-left corner is at (x, y) on a page shown at `zoom` CSS px per point is stored:
 * the page frame is the page unrotated, top-left origin. A page turned 90° shows its left edge at
 * the top, so the shown top-left corner of the field is its page-frame bottom-left, and the
 * field's shown width runs along the page frame's height; and so on round.
 */
function expectedPosition(page: PageGeometry, size: { width: number; height: number }, x: number, y: number, zoom: number) {
  const sx = x / zoom;
  const sy = y / zoom;
  const { width: W, height: H } = page;
  switch (page.rotate) {
    case 0:
      return { x: sx, y: sy };
    case 90:
      return { x: sy, y: H - sx - size.width };
    case 180:
      return { x: W - sx - size.width, y: H - sy - size.height };
    case 270:
      return { x: W - sy - size.height, y: sx };
  }
}

/** The stored (page-frame) size of a field of this type: its shown sides swap on a quarter turn. */
function storedSize(type: FieldType, page: PageGeometry) {
  const { width, height } = DEFAULT_SIZE[type];
  return page.rotate === 90 || page.rotate === 270 ? { blockWidth: height, blockHeight: width } : { blockWidth: width, blockHeight: height };
}

const shownWidth = (page: PageGeometry) => (page.rotate === 90 || page.rotate === 270 ? page.height : page.width);

interface Placement {
  readonly signer: 'buyer' | 'seller';
  readonly type: FieldType;
  readonly document: typeof ROTATED | typeof MIXED;
  readonly pageNumber: number;
  /**
   * Where to click, as a fraction of the shown page's width and height: the zoom differs between
   * a desktop and a phone, and a fraction stays the same spot on the page (and keeps the field
   * inside it) at any zoom.
   */
  readonly at: { readonly x: number; readonly y: number };
}

// Each signer gets a signature, a date, a text and a QR code, on pages turned 90°, 180° and 270°
// and on pages of three different sizes.
const PLACEMENTS: readonly Placement[] = [
  { signer: 'buyer', type: 'signature', document: ROTATED, pageNumber: 1, at: { x: 0.05, y: 0.1 } },
  { signer: 'buyer', type: 'calendar', document: ROTATED, pageNumber: 2, at: { x: 0.15, y: 0.07 } },
  { signer: 'buyer', type: 'text', document: ROTATED, pageNumber: 3, at: { x: 0.15, y: 0.1 } },
  { signer: 'buyer', type: 'qrcode', document: MIXED, pageNumber: 2, at: { x: 0.06, y: 0.12 } },
  { signer: 'seller', type: 'signature', document: MIXED, pageNumber: 1, at: { x: 0.1, y: 0.2 } },
  { signer: 'seller', type: 'calendar', document: MIXED, pageNumber: 3, at: { x: 0.12, y: 0.1 } },
  { signer: 'seller', type: 'text', document: ROTATED, pageNumber: 1, at: { x: 0.35, y: 0.45 } },
  { signer: 'seller', type: 'qrcode', document: ROTATED, pageNumber: 2, at: { x: 0.45, y: 0.25 } },
];

interface Placed extends Placement {
  readonly uuid: string;
  readonly expected: { x: number; y: number };
  /** The box as shown, relative to its page, CSS px. */
  readonly shown: { x: number; y: number; width: number; height: number };
}

const pagesOf = (page: Page, name: string) => page.getByRole('region', { name: editor.pages.replace('{{name}}', name) });
const pageElement = (page: Page, name: string, pageNumber: number) => pagesOf(page, name).locator(`[data-page-number="${pageNumber}"]`);

async function openDocument(page: Page, name: string) {
  const tab = page.getByRole('tab', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await expect(pagesOf(page, name)).toBeVisible();
}

/** The box's rectangle relative to its page's, in CSS px. */
async function shownOn(box: Locator, pageEl: Locator) {
  const [b, p] = await Promise.all([box.boundingBox(), pageEl.boundingBox()]);
  expect(b && p).toBeTruthy();
  return { x: b!.x - p!.x, y: b!.y - p!.y, width: b!.width, height: b!.height };
}

// @phone: the tag editor stacks its palette below the pages on a phone and fits pages to a phone's width;
// the journey checks fields land at the same page fractions at both sizes.
test('a custodian places signature, date, text and QR fields for two signers on turned and odd-sized pages, and they stay put', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  // Two documents, nine fields, a reload and a send: more than the default allows on a busy machine, a phone's most of all.
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const person = {
    email: `farah.${project}@tags.test`,
    firstName: 'Farah',
    lastName: 'Qureshi',
    orgName: `Qureshi Estates ${project}`,
    password: 'Tag-editor-password-2025',
  };
  const reviewer = `reviewer.${project}@tags.test`;
  const signers = { buyer: `buyer.${project}@tags.test`, seller: `seller.${project}@tags.test` };
  let ePakId = '';
  let documents: EpakDocument[] = [];
  const placed: Placed[] = [];

  await test.step('the custodian composes a draft: two PDFs, a review, then two signers', async () => {
    await signUpAndConfirm(page, request, person);
    await page.goto('/compose');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: compose.upload.choose }).click();
    await (await chooser).setFiles([`${CORPUS}${ROTATED}`, `${CORPUS}${MIXED}`]);
    await expect(page.getByRole('list', { name: compose.upload.list }).getByText(/^Uploaded ·/)).toHaveCount(2, { timeout: 30_000 });
    await composeGoTo(page, 'recipients');
    await step(page, 1).getByRole('combobox', { name: new RegExp(`^${en.workflows.form.state}`) }).selectOption({ label: 'Review' });
    await step(page, 1).getByLabel(withNumber(compose.workflow.addRecipient, 1), { exact: true }).fill(reviewer);
    await step(page, 1).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, 1) }).click();
    await page.getByRole('button', { name: en.workflows.form.addStep }).click();
    await step(page, 2).getByRole('combobox', { name: new RegExp(`^${en.workflows.form.state}`) }).selectOption({ label: 'Sign' });
    await step(page, 2).getByLabel(withNumber(compose.workflow.addRecipient, 2), { exact: true }).fill(`${signers.buyer}; ${signers.seller}`);
    await step(page, 2).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, 2) }).click();
    await expect(step(page, 2).getByRole('listitem')).toHaveCount(2);
    await fieldLabelled(page, compose.details.subject).fill(`Sale of plot 7 (${project})`);
    // QUICKSIGN asks for no reason field beside each signature.
    await page.getByRole('combobox', { name: en.workflows.form.signingPolicy }).selectOption('QUICKSIGN');
    await composeGoTo(page, 'fields');
    await expect(page).toHaveURL(/\/compose\?ePakId=[0-9a-f-]{36}$/);
    ePakId = new URL(page.url()).searchParams.get('ePakId')!;
    const headers = await apiHeadersOf(request, person.email, person.password);
    documents = (await callData(request, getEpak, { headers, params: { ePakId } })).documents;
    expect(documents.map((stored) => stored.name)).toEqual([ROTATED, MIXED]);
    expect(documents[0]!.pages.slice(0, 3).map((geometry) => geometry.rotate)).toEqual([90, 180, 270]);
    await expect(pagesOf(page, ROTATED).locator('[data-page-number="1"][data-rendered="true"]')).toBeVisible({ timeout: 20_000 });
  });

  // The fields save themselves a moment after the last edit. Their saves are held here until the
  // journey has seen the fields placed but not yet saved, so that moment is not a race.
  let releaseSaves = () => {};
  const savesHeld = new Promise<void>((resolve) => (releaseSaves = resolve));
  const signatureBlocks = '**/msbapi/v2/epaks/*/documents/*/signatureblocks';
  await page.route(signatureBlocks, async (route) => {
    if (route.request().method() === 'PUT') await savesHeld;
    await route.fallback();
  });

  await test.step('each field is placed where the page is clicked, for the signer chosen', async () => {
    for (const placement of PLACEMENTS) {
      const target = documents.find((candidate) => candidate.name === placement.document)!;
      const geometry = target.pages[placement.pageNumber - 1]!;
      await openDocument(page, target.name);
      await page.getByLabel(editor.for, { exact: true }).selectOption(`2|${signers[placement.signer]}`);
      await page.getByRole('group', { name: editor.palette.heading }).getByRole('button', { name: editor.types[placement.type], exact: true }).click();
      await expect(page.getByText(editor.palette.armed.replace('{{type}}', editor.types[placement.type]))).toBeVisible();

      const pageEl = pageElement(page, target.name, placement.pageNumber);
      const { clientX, clientY, bounds } = await clickOnPageAt(page, pageEl, placement.at);
      const zoom = bounds.width / shownWidth(geometry);

      const box = pageEl.locator('[data-testid="tag-box"][aria-pressed="true"]');
      await expect(box).toHaveCount(1);
      await expect(box).toHaveAttribute('aria-label', new RegExp(`^${editor.types[placement.type]} field for .+, page ${placement.pageNumber}$`));
      const uuid = (await box.getAttribute('data-tag-uuid'))!;
      const shown = await shownOn(box, pageEl);
      expect(Math.abs(shown.x - (clientX - bounds.x))).toBeLessThan(1);
      expect(Math.abs(shown.y - (clientY - bounds.y))).toBeLessThan(1);
      // Upright as the person sees the page: a signature is wide and low even on a turned page.
      expect(Math.abs(shown.width - DEFAULT_SIZE[placement.type].width * zoom)).toBeLessThan(1);
      expect(Math.abs(shown.height - DEFAULT_SIZE[placement.type].height * zoom)).toBeLessThan(1);
      placed.push({
        ...placement,
        uuid,
        expected: expectedPosition(geometry, DEFAULT_SIZE[placement.type], clientX - bounds.x, clientY - bounds.y, zoom),
        shown,
      });
    }
    // In compose the editor saves by itself: the step's badge says so, the editor has no save button or badge of its own.
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'saving');
    await expect(page.getByText(editor.unsaved)).toHaveCount(0);
    await expect(page.getByRole('button', { name: editor.actions.save })).toHaveCount(0);
    await capture(page, testInfo, 'tag-editor-placed');
    // Sending now would leave the unsaved fields out: review and send waits for them to be saved.
    await composeNextTo(page, 'review').click();
    await expect(composeNextTo(page, 'review')).toHaveAttribute('data-loading', 'true');
    await expect(composeStep(page, 'fields')).toHaveAttribute('aria-current', 'step');
    await expect(page.getByRole('button', { name: compose.start.send })).toHaveCount(0);
  });

  await test.step('saved, the server keeps every field at the page-frame position of its click', async () => {
    releaseSaves();
    await expect(composeStep(page, 'review')).toHaveAttribute('aria-current', 'step');
    await expect(composeSaveStatus(page)).toHaveAttribute('data-state', 'saved');
    await page.unroute(signatureBlocks);
    // Each signer has a signature field: nothing is missing.
    await expect(page.getByRole('status').filter({ hasText: compose.review.ready })).toBeVisible();
    await expect(page.getByText(editor.unsaved)).toHaveCount(0);
    const headers = await apiHeadersOf(request, person.email, person.password);
    for (const stored of documents) {
      const { tags } = await callData(request, getSignatureBlocks, { headers, params: { ePakId, documentId: stored.documentId } });
      const mine = placed.filter((placement) => placement.document === stored.name);
      expect(tags.map((tag) => tag.uuid).sort()).toEqual(mine.map((placement) => placement.uuid).sort());
      for (const placement of mine) {
        const tag = tags.find((candidate) => candidate.uuid === placement.uuid)!;
        const geometry = stored.pages[placement.pageNumber - 1]!;
        expect(tag).toMatchObject({ type: placement.type, pageNumber: placement.pageNumber, userEmail: signers[placement.signer], ...storedSize(placement.type, geometry) });
        expect(Math.abs(tag.positionX - placement.expected.x), `${placement.type} x on ${stored.name} p${placement.pageNumber}`).toBeLessThanOrEqual(0.5);
        expect(Math.abs(tag.positionY - placement.expected.y), `${placement.type} y on ${stored.name} p${placement.pageNumber}`).toBeLessThanOrEqual(0.5);
      }
    }
  });

  await test.step('after a reload every box is drawn where it was placed', async () => {
    await page.reload();
    // A draft with nothing missing reopens at its review; its fields are a step back.
    await expect(composeStep(page, 'review')).toHaveAttribute('aria-current', 'step');
    await openComposeStep(page, 'fields');
    for (const stored of documents) {
      await openDocument(page, stored.name);
      for (const placement of placed.filter((candidate) => candidate.document === stored.name)) {
        const pageEl = pageElement(page, stored.name, placement.pageNumber);
        const box = pageEl.locator(`[data-testid="tag-box"][data-tag-uuid="${placement.uuid}"]`);
        await expect(box).toBeVisible();
        const shown = await shownOn(box, pageEl);
        for (const key of ['x', 'y', 'width', 'height'] as const) {
          expect(Math.abs(shown[key] - placement.shown[key]), `${placement.type} ${key} on ${stored.name} p${placement.pageNumber}`).toBeLessThanOrEqual(1);
        }
      }
    }
    await openDocument(page, ROTATED);
    await capture(page, testInfo, 'tag-editor-reloaded');
  });

  await test.step('sent for signing: each signer has a signature field, so the server takes it', async () => {
    await composeGoTo(page, 'review');
    await page.getByRole('button', { name: compose.start.send }).click();
    await expect(page.getByRole('status').filter({ hasText: compose.start.sent })).toBeVisible();
    // A sent ePak's fields are no longer placed here.
    await expect(page.getByRole('button', { name: editor.actions.save })).toHaveCount(0);
  });
});
