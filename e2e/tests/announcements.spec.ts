import type { Browser, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { fileURLToPath } from 'node:url';
import { authenticate, createInstanceAnnouncement, currentAnnouncements, deleteInstanceAnnouncement, inviteUsers, type EndpointData } from '@pakt/domain';
import { callData } from './api';
import { apiHeadersOf, bundles, ensureRoot, expectNoHorizontalOverflow, fieldLabelled, h1, keepScreenshot, linkIn, registerFromInvitation, ROOT, rootMail, signInWith, signUpAndConfirm } from './support';

const { en } = bundles;
const a = en.announcements;

// The brief's sizes for the screens of this feature: a laptop, and a current phone.
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const screenshotDir = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** The screen at both sizes, checking each fits without sideways scrolling. */
async function captureBoth(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [device, size] of Object.entries(SIZES)) {
    await page.setViewportSize(size);
    await expectNoHorizontalOverflow(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await keepScreenshot(page, { path: `${screenshotDir}${device}-${name}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

const banner = (page: Page) => page.getByRole('region', { name: a.region });

/** A browser of the person's own (their own storage), at the size of this project. */
async function ownBrowser(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const phone = testInfo.project.name === 'phone';
  const context = await browser.newContext({ viewport: testInfo.project.use.viewport!, isMobile: phone, hasTouch: phone });
  return context.newPage();
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A `datetime-local` value in the browser's zone (the test and the browser share the machine's). */
const localInput = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

test('an admin announces something now and something later; a member sees only what has started, on the dashboard and the login page', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const admin = { email: `nisha.${project}@announce.test`, firstName: 'Nisha', lastName: 'Kapoor', orgName: `Kapoor Estates ${project}`, password: 'Announce-password-2025' };
  const member = { email: `dev.${project}@announce.test`, firstName: 'Dev', lastName: 'Sharma', password: 'Member-password-2025' };
  const now = `Office closed on Friday for the festival (${project})`;
  const later = `Quarterly training next month (${project})`;
  const instanceWide = `Pakt is upgraded tonight from 22:00 (${project})`;
  let adminHeaders: Record<string, string> = {};
  let rootToken = '';
  let instanceId = '';

  await test.step('an organisation with its admin and a member', async () => {
    await signUpAndConfirm(page, request, admin);
    adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    await callData(request, inviteUsers, { headers: adminHeaders, body: { users: [{ email: member.email, firstName: member.firstName, lastName: member.lastName, role: 'signer' }] } });
    // Root hands the invitation on: this install sends no mail, and the admin's outbox shows no text.
    const invitation = linkIn(await rootMail(request, { recipient: member.email }));
    await registerFromInvitation(request, invitation, member);
  });

  await test.step('the admin publishes one starting now and one starting tomorrow', async () => {
    await page.goto('/admin');
    await page.getByRole('tab', { name: a.tab }).click();
    await expect(h1(page)).toHaveText(a.title);
    await expect(page).toHaveURL(/\/admin\?section=announcements$/);

    // A new announcement starts now and runs for a day unless told otherwise.
    await fieldLabelled(page, a.form.text).fill(now);
    await page.getByRole('button', { name: a.form.create }).click();
    await expect(page.getByRole('listitem', { name: now })).toContainText(a.status.live);

    // An end before the start: the server's verdict lands on the end.
    const tomorrow = new Date(Date.now() + 24 * 3_600_000);
    await fieldLabelled(page, a.form.text).fill(later);
    await fieldLabelled(page, a.form.start).fill(localInput(tomorrow));
    await fieldLabelled(page, a.form.end).fill(localInput(new Date(tomorrow.getTime() - 3_600_000)));
    await page.getByRole('button', { name: a.form.create }).click();
    await expect(page.getByText(a.errors.endBeforeStart)).toBeVisible();
    await fieldLabelled(page, a.form.end).fill(localInput(new Date(tomorrow.getTime() + 2 * 3_600_000)));
    await page.getByRole('button', { name: a.form.create }).click();
    await expect(page.getByRole('listitem', { name: later })).toContainText(a.status.scheduled);
    await expect(page.getByText(a.published)).toBeVisible();
    await captureBoth(page, 'admin-announcements');
  });

  await test.step("the member, signed in, sees the tenant's current announcement on the dashboard, not the later one", async () => {
    const memberPage = await ownBrowser(browser, testInfo);
    await memberPage.goto('/login');
    await signInWith(memberPage, member.email, member.password);
    await expect(memberPage).not.toHaveURL(/\/login/);
    await memberPage.goto('/dashboard');
    await expect(banner(memberPage).getByText(now)).toBeVisible();
    await expect(memberPage.getByText(later)).toHaveCount(0);

    // Closed, it stays closed for the session.
    await banner(memberPage).getByRole('button', { name: a.dismiss }).click();
    await expect(memberPage.getByText(now)).toHaveCount(0);
    const checked = memberPage.waitForResponse((response) => response.url().endsWith(currentAnnouncements.path));
    await memberPage.reload();
    expect(((await (await checked).json()) as { data: EndpointData<typeof currentAnnouncements> }).data.items.map((item) => item.text)).toContain(now);
    await expect(memberPage.getByText(now)).toHaveCount(0);
    await memberPage.context().close();
  });

  await test.step('root announces to the whole instance: shown on the login page to anyone, until it is removed', async () => {
    await ensureRoot(request);
    rootToken = (await callData(request, authenticate, { body: { username: ROOT.email, password: ROOT.password } })).accessToken;
    const root = { authorization: `Bearer ${rootToken}` };
    try {
      instanceId = (
        await callData(request, createInstanceAnnouncement, {
          headers: root,
          body: { text: instanceWide, startTime: new Date(Date.now() - 60_000).toISOString(), endTime: new Date(Date.now() + 3_600_000).toISOString() },
        })
      ).id;
      const visitor = await ownBrowser(browser, testInfo);
      await visitor.goto('/login');
      await expect(h1(visitor)).toHaveText(en.login.title);
      await expect(banner(visitor).getByText(instanceWide)).toBeVisible();
      // A tenant's own announcements are for its signed-in members only.
      await expect(visitor.getByText(now)).toHaveCount(0);
      await captureBoth(visitor, 'login-announcement');
      await visitor.context().close();
    } finally {
      // The journeys that run after this one on the worker's server share the login page: leave it as it was.
      if (instanceId) await callData(request, deleteInstanceAnnouncement, { headers: root, params: { announcementId: instanceId } });
    }
  });
});
