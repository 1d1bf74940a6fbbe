import type { APIRequestContext, Locator, Page, PageScreenshotOptions, TestInfo } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../../apps/web/src/i18n/en.json' with { type: 'json' };
import hi from '../../apps/web/src/i18n/hi.json' with { type: 'json' };
import { e2eServer, expect } from './fixtures';
import { callData } from './api';
import { authenticate, completeSetup, inviteTenantSuperadmin, inviteUsers, registerUserTenant, setupStatus, signup, systemOutbox, type EndpointInput } from '@pakt/domain';

// The app's own bundles: journeys assert what a person reads without copying the wording here.
export const bundles = { en, hi };

const screenshotDir = fileURLToPath(new URL('../screenshots/', import.meta.url));

/**
 * Whether this run writes its screenshots (E2E_SCREENSHOTS=1, as `npm run test:e2e:screens` sets).
 * They are for a person to open and look at; a run nobody looks at (npm test, CI) skips writing
 * them, which was about a seventh of the CPU of the journeys that take the most. Everything that
 * goes with a capture still runs either way: the fit at both widths, the viewport switches, the
 * wait for animations to end.
 */
export const KEEP_SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

/** page.screenshot to a file, when this run keeps screenshots (KEEP_SCREENSHOTS). */
export async function keepScreenshot(page: Page, options: PageScreenshotOptions & { path: string }): Promise<void> {
  if (KEEP_SCREENSHOTS) await page.screenshot(options);
}

/** Full-page capture named `<project>-<name>.png`, kept for people to look at after a run. */
export async function saveScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await scrollToTop(page);
  await keepScreenshot(page, { path: `${screenshotDir}${testInfo.project.name}-${name}.png`, fullPage: true });
}

/**
 * What the viewport shows now, once running transitions have ended: for a dialog, which sits over
 * the viewport, rather than the whole page. Waits on the animations themselves, not on a time.
 */
export async function saveViewportScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  // A cancelled animation rejects its promise; it has ended all the same.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  await keepScreenshot(page, { path: `${screenshotDir}${testInfo.project.name}-${name}.png` });
}

/**
 * A full-page capture of a scrolled page draws the fixed header where the viewport was, across the
 * middle of the picture; from the top it sits where a person sees it.
 */
async function scrollToTop(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** The viewports of the two projects in playwright.config.ts. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
} as const;

/**
 * Captures a screen at both project sizes from one run into e2e/screenshots/, each checked to fit
 * without sideways scrolling. For journeys with no phone run (untagged: the same steps on the same
 * elements at both sizes, see playwright.config.ts) this is how the phone's fit is still checked,
 * and for a screen that a phone run cannot reach again. The page is laid out by media queries, so
 * resizing shows what the other device would; the viewport is restored.
 */
export async function saveScreenshotAtBothSizes(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [project, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await expectNoHorizontalOverflow(page);
    await scrollToTop(page);
    await keepScreenshot(page, { path: `${screenshotDir}${project}-${name}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/**
 * A journey's screen at both sizes into `dir` (`desktop-NAME.png`, `phone-NAME.png`), each
 * checked to fit without sideways scrolling once its animations have ended; the viewport is
 * restored. Journeys call it from their desktop run only, as both runs would write the same files.
 */
export async function captureAtBothSizes(page: Page, dir: string, name: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const original = page.viewportSize();
  for (const [device, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await expectNoHorizontalOverflow(page);
    await scrollToTop(page);
    // A cancelled animation rejects its promise; it has ended all the same.
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
    await keepScreenshot(page, { path: `${dir.replace(/\/?$/, '/')}${device}-${name}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/** Sideways scrolling is the usual symptom of a layout that does not fit a phone. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  // Polled: right after a viewport change, charts and tables re-measure on their own frame
  // (ResizeObserver), so one reading could see the old width (the group-charts CI failure).
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
      message: 'page is wider than the viewport',
    })
    .toBeLessThanOrEqual(0);
}

/** The root account of the e2e install (identity.spec.ts creates it through the setup form). */
export const ROOT = { email: 'root@pakt.test', firstName: 'Ravi', lastName: 'Iyer', password: 'Root-password-2025' } as const;

/** The fresh random SETUP_TOKEN scripts/e2e-server.mjs started this worker's server with. */
export function readSetupToken(): string {
  const { setupTokenFile } = e2eServer();
  expect(fs.existsSync(setupTokenFile), `${setupTokenFile} is written by scripts/e2e-server.mjs`).toBe(true);
  return fs.readFileSync(setupTokenFile, 'utf8').trim();
}

/**
 * Makes sure the root account exists whichever spec runs first: through the API with the setup
 * token when the install is still fresh (the setup form itself is exercised by identity.spec.ts).
 */
export async function ensureRoot(request: APIRequestContext): Promise<void> {
  const status = await callData(request, setupStatus, {});
  if (!status.required) return;
  await callData(request, completeSetup, { body: { token: readSetupToken(), ...ROOT } });
}

/** A message of root's outbox, as GET /msbapi/v1/root/outbox answers it. */
export interface RootMail {
  readonly channel: 'email' | 'sms';
  readonly recipient: string;
  readonly subject: string;
  /** Whole while nothing delivers the channel, as on the e2e install (no SMTP_URL). */
  readonly body: string;
  readonly tenantName: string | null;
  readonly kind: string;
}

/** Root's API headers: root reads every tenant's outbox, and hands links on where no mail is sent. */
export async function rootHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  await ensureRoot(request);
  const { accessToken } = await callData(request, authenticate, { body: { username: ROOT.email, password: ROOT.password } });
  return { authorization: `Bearer ${accessToken}` };
}

/**
 * The newest message to `recipient` in root's outbox that matches the rest of `match`, read as
 * root through the API. A tenant admin's outbox never shows a text (issue 17): on an install
 * without SMTP, such as this one, the operator (root) is who passes invitations and links on.
 * Root's outbox spans every tenant, so it is always asked for one recipient.
 */
export async function rootMail(
  request: APIRequestContext,
  match: { readonly recipient: string; readonly subject?: string; readonly kind?: string; readonly bodyIncludes?: string },
): Promise<RootMail> {
  const headers = await rootHeaders(request);
  // Mail is queued after the change commits and written by a job: wait for it as for an element.
  let mail: Awaited<ReturnType<typeof readOutbox>>[number] | undefined;
  async function readOutbox() {
    return (await callData(request, systemOutbox, { headers, query: { recipient: match.recipient } })).messages;
  }
  await expect
    .poll(
      async () => {
        mail = (await readOutbox()).find(
          (m) =>
            m.recipient === match.recipient &&
            (match.subject === undefined || m.subject === match.subject) &&
            (match.kind === undefined || m.kind === match.kind) &&
            (match.bodyIncludes === undefined || !!m.body?.includes(match.bodyIncludes)),
        );
        return mail !== undefined;
      },
      { message: `a message ${JSON.stringify(match)} in root's outbox` },
    )
    .toBe(true);
  // Root sees the whole text of a channel nothing delivers, as on this install.
  expect(mail!.body, `the text of "${mail!.subject}" to ${mail!.recipient}`).not.toBeNull();
  return { ...mail!, body: mail!.body! };
}

/** The first link in a message's text (the first one matching `pattern`, when given). */
export function linkIn(mail: RootMail, pattern: RegExp = /https?:\/\/\S+/): URL {
  const link = pattern.exec(mail.body)?.[0];
  expect(link, `a link in "${mail.subject}" to ${mail.recipient}`).toBeDefined();
  return new URL(link!);
}

/**
 * The link in the newest mail with this subject to this address (sign-up confirmations, resets,
 * invitations), read from root's outbox through the API. Journeys that follow a link do so in the
 * browser; password-reset.spec.ts covers root reading the outbox on screen.
 */
export async function mailedLink(request: APIRequestContext, subject: string, recipient: string): Promise<string> {
  return linkIn(await rootMail(request, { recipient, subject })).href;
}

export interface NewAccount {
  email: string;
  firstName: string;
  lastName: string;
  orgName: string;
  password: string;
}

/** Self-service sign-up through the API (the form itself is exercised by two-factor.spec.ts). */
export async function signUpThroughApi(request: APIRequestContext, person: NewAccount): Promise<void> {
  await ensureRoot(request);
  await callData(request, signup, {
    body: {
      email: person.email,
      firstName: person.firstName,
      lastName: person.lastName,
      orgName: person.orgName,
      newPassword: person.password,
      confirmPassword: person.password,
    },
  });
}

/**
 * Signs up through the API and confirms the address in this browser, as the mailed link does:
 * that makes the organisation and signs the person in here.
 */
export async function signUpAndConfirm(page: Page, request: APIRequestContext, person: NewAccount): Promise<void> {
  await signUpThroughApi(request, person);
  const link = new URL(await mailedLink(request, 'Confirm your email address for Pakt', person.email));
  await page.goto(link.pathname + link.search);
  await expect(page.getByText(en.thanks.ready.replace('{{name}}', person.firstName).replace('{{tenant}}', person.orgName))).toBeVisible();
}

export const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

/** The items of the main menu as the signed-in person sees them now. */
export async function menuItems(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: en.menu.open }).click();
  // allTextContents does not wait: read only once the menu has drawn its items.
  await expect(page.getByRole('menuitem').first()).toBeVisible();
  const items = await page.getByRole('menuitem').allTextContents();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem')).toHaveCount(0);
  return items;
}

/** The four steps of compose, by the names of their test ids (compose-step-NAME). */
export type ComposeStepName = 'documents' | 'recipients' | 'fields' | 'review';

/** A step of compose's stepper, in its navigation ("Compose steps"): aria-current="step" marks the one shown. */
export const composeStep = (page: Page, name: ComposeStepName) => page.getByRole('navigation', { name: en.compose.flow.label }).getByTestId(`compose-step-${name}`);

/** The button under a compose step that goes on to the step named ("Next: Fields"). */
export const composeNextTo = (page: Page, name: ComposeStepName) =>
  page.getByRole('button', { name: en.compose.flow.nextTo.replace('{{step}}', en.compose.flow.steps[name].label), exact: true });

/**
 * Goes on to the step named with the button under the current one, and waits until it is shown:
 * leaving the recipients of a new ePak saves the draft first, leaving the fields saves them.
 */
export async function composeGoTo(page: Page, name: ComposeStepName): Promise<void> {
  await composeNextTo(page, name).click();
  await expect(composeStep(page, name)).toHaveAttribute('aria-current', 'step');
}

/** Opens a step of a saved draft from the stepper itself ("Step 3 of 4: Fields"). */
export async function openComposeStep(page: Page, name: ComposeStepName): Promise<void> {
  await composeStep(page, name).click();
  await expect(composeStep(page, name)).toHaveAttribute('aria-current', 'step');
}

/** Where the draft stands beside the steps (data-state: new, saving, saved, failed or invalid). */
export const composeSaveStatus = (page: Page) => page.getByTestId('compose-save-status');

/** Mantine marks required labels with " *"; matching the start keeps the bundles' wording exact. */
export const fieldLabelled = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`), { exact: false });

export async function signInWith(page: Page, email: string, password: string): Promise<void> {
  await fieldLabelled(page, en.common.email).fill(email);
  await fieldLabelled(page, en.common.password).fill(password);
  await page.getByRole('button', { name: en.login.submit }).click();
}

export async function logOutAs(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: en.shell.accountMenu.replace('{{name}}', name) }).click();
  await page.getByRole('menuitem', { name: en.shell.logout }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(h1(page)).toHaveText(en.login.title);
}

/**
 * Clicks a page of the tag editor at a point given as fractions of its width and height, and
 * answers the point in the viewport and the page's box. The point itself is scrolled to the
 * centre first, not merely the page "into view": a page only partly shown (at the edge of the
 * pages' own scroll area, or taller than a phone's screen) can have the point under the sticky
 * header or outside what is shown, where a click lands on something else.
 */
export async function clickOnPageAt(
  page: Page,
  pageEl: Locator,
  at: { readonly x: number; readonly y: number },
): Promise<{ clientX: number; clientY: number; bounds: { x: number; y: number; width: number; height: number } }> {
  await pageEl.evaluate(
    (element, [x, y]) => {
      const marker = document.createElement('span');
      marker.style.cssText = `position:absolute;left:${x! * 100}%;top:${y! * 100}%;width:1px;height:1px;pointer-events:none`;
      element.append(marker);
      marker.scrollIntoView({ block: 'center', inline: 'center' });
      marker.remove();
    },
    [at.x, at.y],
  );
  const bounds = (await pageEl.boundingBox())!;
  // Whole device pixels: the click lands exactly there, and callers' expectations use the same point.
  const clientX = Math.round(bounds.x + at.x * bounds.width);
  const clientY = Math.round(bounds.y + at.y * bounds.height);
  const hit = await pageEl.evaluate((element, [x, y]) => element === document.elementFromPoint(x!, y!), [clientX, clientY]);
  expect(hit, 'the click point is on the page itself: not under the header, off screen or on a field').toBe(true);
  await page.mouse.click(clientX, clientY);
  return { clientX, clientY, bounds };
}

/** Screenshot after checking the layout fits the viewport. */
export async function capture(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, name);
}

/**
 * Headers for calling the API as this person in their first tenant, for tests that arrange data
 * or check what the server stored without going through the screens.
 */
export async function apiHeadersOf(request: APIRequestContext, email: string, password: string): Promise<Record<string, string>> {
  const { accessToken, user } = await callData(request, authenticate, { body: { username: email, password } });
  return { authorization: `Bearer ${accessToken}`, 'x-tenant-id': user.tenants[0]!.tenantUuid };
}

/** Invites someone into the admin's tenant with a role and registers them from the mailed link, through the API. */
export async function inviteAndRegister(
  request: APIRequestContext,
  adminHeaders: Record<string, string>,
  person: { readonly email: string; readonly firstName: string; readonly lastName: string; readonly password: string },
  role: string,
): Promise<void> {
  await callData(request, inviteUsers, {
    headers: adminHeaders,
    body: { users: [{ email: person.email, firstName: person.firstName, lastName: person.lastName, role: role as InvitedRole }] },
  });
  // The admin's outbox shows to whom, never the link: root hands it on (no SMTP on this install).
  await registerFromInvitation(request, linkIn(await rootMail(request, { recipient: person.email })), person);
}

/** The roles an admin may invite with (the contract's). */
type InvitedRole = EndpointInput<typeof inviteUsers>['body']['users'][number]['role'];

type Person = { readonly email: string; readonly firstName: string; readonly lastName: string; readonly password: string };

/** Registers the invited person from their invitation link (its `invite` and `tenant`), through the API. */
export async function registerFromInvitation(request: APIRequestContext, invitation: URL, person: Person): Promise<void> {
  await callData(request, registerUserTenant, {
    body: {
      userEmail: person.email,
      firstName: person.firstName,
      lastName: person.lastName,
      newPassword: person.password,
      confirmPassword: person.password,
      inviteCode: invitation.searchParams.get('invite')!,
      tenantUuid: invitation.searchParams.get('tenant')!,
    },
  });
}

/**
 * A super admin of the tenant, as an install makes its first one: invited by root from the
 * console's endpoint, registered from the link root is shown. Answers their API headers.
 */
export async function addSuperAdmin(request: APIRequestContext, tenantId: string, person: Person): Promise<Record<string, string>> {
  await ensureRoot(request);
  const { accessToken } = await callData(request, authenticate, { body: { username: ROOT.email, password: ROOT.password } });
  const { inviteLink } = await callData(request, inviteTenantSuperadmin, {
    headers: { authorization: `Bearer ${accessToken}` },
    params: { tenantId },
    body: { email: person.email, firstName: person.firstName, lastName: person.lastName },
  });
  await registerFromInvitation(request, new URL(inviteLink), person);
  return apiHeadersOf(request, person.email, person.password);
}

/**
 * Writes a signed PDF into a fresh temporary folder and checks it as others would: pdfsig counts
 * `signatures` signatures, every one valid, and qpdf --check passes. The folder and file are
 * returned for checks of the page itself (pdftoppm).
 */
export function expectValidSignedPdf(bytes: Buffer, signatures: number, prefix: string): { folder: string; pdf: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const pdf = path.join(folder, 'signed.pdf');
  fs.writeFileSync(pdf, bytes);
  const pdfsig = spawnSync('pdfsig', [pdf], { encoding: 'utf8' });
  expect((pdfsig.stdout.match(/^Signature #\d+:/gm) ?? []).length, pdfsig.stdout + pdfsig.stderr).toBe(signatures);
  expect((pdfsig.stdout.match(/- Signature Validation: Signature is Valid\./g) ?? []).length, pdfsig.stdout).toBe(signatures);
  const qpdf = spawnSync('qpdf', ['--check', pdf], { encoding: 'utf8' });
  expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
  return { folder, pdf };
}

/** At /sign: opens the signature field `tagUuid`, adopts the typed signature the dialog offers (under `typedName`, for an outsider), and waits for it to close. */
export async function adoptTypedSignature(page: Page, tagUuid: string, options: { readonly typedName?: string } = {}): Promise<void> {
  const field = page.locator(`[data-testid="signing-tag"][data-tag-uuid="${tagUuid}"]`);
  await field.scrollIntoViewIfNeeded();
  await field.click();
  const dialog = page.getByRole('dialog', { name: en.signing.signature.title });
  // An external signer, known only by address, types the name they sign under first.
  if (options.typedName) await dialog.getByLabel(en.signing.name.label).fill(options.typedName);
  await dialog.getByRole('tab', { name: en.signing.signature.type }).click();
  await dialog.getByRole('button', { name: en.signing.signature.adopt }).click();
  await expect(dialog).toBeHidden();
}
