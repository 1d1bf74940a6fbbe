import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { authenticate, createEpak, createGroup, createSignatureBlocks, getStatistics, listWorkflowStates, startEpak, uploadDocument, type TagInput } from '@pakt/domain';
import { callData } from './api';
import { bundles, expectNoHorizontalOverflow, inviteAndRegister, keepScreenshot, logOutAs, signInWith, signUpAndConfirm } from './support';

const { en } = bundles;
const charts = en.inbox.charts;

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';

// The sizes the dashboard's charts are looked at: a laptop, and a current phone.
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const screenshotDir = (process.env.E2E_SCREENSHOT_DIR ?? fileURLToPath(new URL('../screenshots/', import.meta.url))).replace(/\/?$/, '/');


interface Person {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly password: string;
}

const nameOf = (person: Person) => `${person.firstName} ${person.lastName}`;

/** Signs in through the API: the headers to act as this person in their first tenant, and their id. */
async function signedIn(request: APIRequestContext, person: Person): Promise<{ headers: Record<string, string>; userId: string }> {
  const grant = await callData(request, authenticate, { body: { username: person.email, password: person.password } });
  return { headers: { authorization: `Bearer ${grant.accessToken}`, 'x-tenant-id': grant.user.tenants[0]!.tenantUuid }, userId: grant.user.id };
}

/** Invites someone into the admin's tenant with a role and registers them from their mail; their id. */
async function addMember(request: APIRequestContext, adminHeaders: Record<string, string>, person: Person, role: 'signer' | 'submitter'): Promise<string> {
  await inviteAndRegister(request, adminHeaders, person, role);
  return (await signedIn(request, person)).userId;
}

/** An ePak of one page composed through the API: a draft, or started and waiting for `signer`. */
async function compose(request: APIRequestContext, headers: Record<string, string>, subject: string, signer: string, start: boolean): Promise<void> {
  const { states } = await callData(request, listWorkflowStates, { headers });
  const sign = states.find((state) => state.type === 'SIGN')!.workflowStateId;
  const uploaded = await callData(request, uploadDocument, { headers, file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) } });
  const epak = await callData(request, createEpak, {
    headers,
    body: { subject, documentIds: [uploaded.documentId], signingPolicy: 'QUICKSIGN', viewEnforced: false, steps: [{ workflowStateId: sign, recipients: [{ email: signer }] }] },
  });
  if (!start) return;
  const signature: TagInput = { uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 600, blockWidth: 160, blockHeight: 50, userEmail: signer, wfsOrderId: 1 };
  await callData(request, createSignatureBlocks, { headers, params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId }, body: { tags: [signature] } });
  await callData(request, startEpak, { headers, params: { ePakId: epak.ePakId } });
}

/** The charts at both sizes, each checked to fit without sideways scrolling, scrolled to the statistics. */
async function captureCharts(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [device, size] of Object.entries(SIZES)) {
    await page.setViewportSize(size);
    await expectNoHorizontalOverflow(page);
    // Below the fixed header, not under it.
    await page.evaluate(() => {
      const heading = document.getElementById('statistics-heading')!;
      window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - 72);
    });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
    await keepScreenshot(page, { path: `${screenshotDir}${device}-${name}.png` });
  }
  if (original) await page.setViewportSize(original);
}

/** The number a folder's bar of the summary chart shows. */
const folderValue = (page: Page, folder: 'Inbox' | 'Pending' | 'Draft') => page.getByTestId(`summary-${folder}`).locator('dd');

// @phone: the dashboard's charts re-flow to a phone's width and the desktop-notifications card is not shown
// there; the journey branches on it.
test('a group manager opens the charts of their groups, then one member’s', { tag: '@phone' }, async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const admin = { email: `ila.${project}@charts.test`, firstName: 'Ila', lastName: 'Verma', orgName: `Verma Freight ${project}`, password: 'Charts-password-2025' };
  const manager: Person = { email: `maya.${project}@charts.test`, firstName: 'Maya', lastName: 'Pillai', password: 'Member-password-2025' };
  const olga: Person = { email: `olga.${project}@charts.test`, firstName: 'Olga', lastName: 'Owens', password: 'Member-password-2025' };
  const kabir: Person = { email: `kabir.${project}@charts.test`, firstName: 'Kabir', lastName: 'Das', password: 'Member-password-2025' };
  const statistics = page.getByRole('region', { name: charts.heading });
  const scopeControl = statistics.getByRole('radiogroup', { name: charts.scope });
  const scope = (label: string) => scopeControl.locator('label').getByText(label, { exact: true });
  let olgaId = '';
  const picker = statistics.getByRole('combobox', { name: charts.scopes.groupuser });
  // The picker's own list (a phone's folder select has options too).
  const options = page.getByRole('listbox').getByRole('option');

  await test.step('setup through the API: an organisation, a group of three managed by Maya, and ePaks its members own', async () => {
    await signUpAndConfirm(page, request, admin);
    const adminHeaders = (await signedIn(request, admin)).headers;
    const managerId = await addMember(request, adminHeaders, manager, 'signer');
    olgaId = await addMember(request, adminHeaders, olga, 'submitter');
    const kabirId = await addMember(request, adminHeaders, kabir, 'submitter');
    await callData(request, createGroup, { headers: adminHeaders, body: { groupName: 'Field Team', userIds: [managerId, olgaId, kabirId], managerId } });

    // Olga: one ePak waiting for Maya, one draft; Kabir: one draft.
    const olgaHeaders = (await signedIn(request, olga)).headers;
    await compose(request, olgaHeaders, `Delivery note (${project})`, manager.email, true);
    await compose(request, olgaHeaders, `Fuel claim (${project})`, manager.email, false);
    await compose(request, (await signedIn(request, kabir)).headers, `Route plan (${project})`, manager.email, false);
    await logOutAs(page, `${admin.firstName} ${admin.lastName}`);
  });

  await test.step('the manager, a signer, is offered Mine and My groups, not the whole organisation; Mine are her own numbers', async () => {
    await signInWith(page, manager.email, manager.password);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto('/dashboard');
    // The desktop-notifications card sits over the charts' corner on a wide screen (phones do not show it).
    if (project === 'desktop') await page.getByRole('region', { name: en.notifications.desktop.title }).getByRole('button', { name: en.notifications.desktop.dismiss }).click();
    await expect(scopeControl.getByRole('radio')).toHaveCount(2);
    await expect(scope(charts.scopes.user)).toBeVisible();
    await expect(scope(charts.scopes.group)).toBeVisible();
    await expect(scope(charts.scopes.all)).toHaveCount(0);
    await expect(folderValue(page, 'Inbox')).toHaveText('1');
    await expect(folderValue(page, 'Draft')).toHaveText('0');
    await expect(picker).toHaveCount(0);
  });

  await test.step('My groups counts the ePaks everyone in her group owns, and offers its members', async () => {
    const asked = page.waitForRequest((sent) => {
      const url = new URL(sent.url());
      return url.pathname === getStatistics.path && url.searchParams.get('scope') === 'group' && url.searchParams.get('type') === 'summary';
    });
    await scope(charts.scopes.group).click();
    await asked;
    await expect(folderValue(page, 'Draft')).toHaveText('2');
    await expect(folderValue(page, 'Pending')).toHaveText('1');
    await expect(statistics.getByRole('heading', { level: 3, name: charts.summary, exact: true })).toBeVisible();
    await expect(picker).toBeVisible();
    await expect(picker).toHaveAttribute('placeholder', charts.memberPlaceholder);
    await picker.click();
    // Her members by name (herself left out: Mine shows hers).
    await expect(options).toHaveText([`${nameOf(kabir)}${kabir.email}`, `${nameOf(olga)}${olga.email}`]);
    if (project === 'desktop') await keepScreenshot(page, { path: `${screenshotDir}desktop-group-charts-picker.png` });
    await picker.press('Escape');
    if (project === 'desktop') await captureCharts(page, 'group-charts-group');
  });

  await test.step('picking a member, found by typing, shows her own numbers in both charts, named in their titles', async () => {
    const asked = page.waitForRequest((sent) => {
      const url = new URL(sent.url());
      return url.pathname === getStatistics.path && url.searchParams.get('scope') === 'groupuser' && url.searchParams.get('type') === 'weekly';
    });
    await picker.fill('olg');
    await expect(options).toHaveCount(1);
    await options.filter({ hasText: nameOf(olga) }).click();
    expect(new URL((await asked).url()).searchParams.get('userId')).toBe(olgaId);
    await expect(picker).toHaveValue(nameOf(olga));
    await expect(statistics.getByRole('heading', { level: 3, name: charts.summaryLabel.replace('{{scope}}', nameOf(olga)) })).toBeVisible();
    await expect(statistics.getByRole('heading', { level: 3, name: charts.weeklyLabel.replace('{{scope}}', nameOf(olga)) })).toBeVisible();
    // Her folders: the draft she keeps, and the ePak waiting for Maya.
    await expect(folderValue(page, 'Draft')).toHaveText('1');
    await expect(folderValue(page, 'Pending')).toHaveText('1');
    await expect(statistics.getByRole('img', { name: charts.weeklyLabel.replace('{{scope}}', nameOf(olga)) })).toBeVisible();
    if (project === 'desktop') await captureCharts(page, 'group-charts-member');
  });

  await test.step('clearing the member goes back to the group', async () => {
    await statistics.getByRole('button', { name: charts.memberClear }).click();
    await expect(picker).toHaveValue('');
    await expect(folderValue(page, 'Draft')).toHaveText('2');
    await expect(statistics.getByRole('heading', { level: 3, name: charts.summary, exact: true })).toBeVisible();
    await scope(charts.scopes.user).click();
    await expect(picker).toHaveCount(0);
    await expect(folderValue(page, 'Inbox')).toHaveText('1');
  });
});
