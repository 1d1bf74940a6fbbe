import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import fs from 'node:fs';
import path from 'node:path';
import { listAdminAudit, tenantOutbox, updateTenantSettings } from '@pakt/domain';
import { callData } from './api';
import { addSuperAdmin, apiHeadersOf, bundles, captureAtBothSizes, expectNoHorizontalOverflow, h1, inviteAndRegister, signUpAndConfirm } from './support';

const { en } = bundles;
const u = en.userSync;

// E2E_SCREENSHOT_DIR lets a reviewer collect this journey's pictures apart from the others'.
const screenshotDir = (process.env.E2E_SCREENSHOT_DIR ?? '/tmp/shots-user-sync').replace(/\/?$/, '/');

const captureBoth = (page: Page, name: string) => captureAtBothSizes(page, screenshotDir, name);

// @phone: the sync-up report (its changes and refusals) is cards on a phone rather than tables, and the
// journey reads each line from it.
test('an admin syncs the organisation with its directory export and reads what changed', { tag: '@phone' }, async ({ page, request, server }, testInfo) => {
  test.setTimeout(240_000);
  const project = testInfo.project.name;
  const admin = { email: `mira.${project}@usersync.test`, firstName: 'Mira', lastName: 'Joshi', orgName: `Joshi Textiles ${project}`, password: 'Sync-password-2025' };
  const signer = { email: `dev.${project}@usersync.test`, firstName: 'Dev', lastName: 'Kapoor', password: 'Member-password-2025' };
  const boss = { email: `anya.${project}@usersync.test`, firstName: 'Anya', lastName: 'Bose', password: 'Super-password-2025' };
  const newcomer = `leela.${project}@usersync.test`;
  let tenantId = '';

  await test.step('an organisation with its admin, a signer, and a super admin who switches user sync-up on', async () => {
    await signUpAndConfirm(page, request, admin);
    const adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    tenantId = adminHeaders['x-tenant-id']!;
    await inviteAndRegister(request, adminHeaders, signer, 'signer');

    const bossHeaders = await addSuperAdmin(request, tenantId, boss);
    await callData(request, updateTenantSettings, { headers: bossHeaders, body: { settings: { showUserSyncUp: true, userSyncFileName: 'people.csv' } } });
  });

  await test.step('before the file is there, the screen says where it goes', async () => {
    await page.goto('/admin?section=userSync');
    await expect(h1(page)).toHaveText(u.title);
    await expect(page.getByText(u.source.missing)).toBeVisible();
    await expect(page.getByText(tenantId, { exact: true })).toBeVisible();
  });

  await test.step('the operator drops the export; the admin starts a sync-up and reads its report', async () => {
    // The server reads feeds from its USER_SYNC_DIR, one per worker's server (tests/fixtures.ts).
    const folder = path.join(server.userSyncDir, tenantId);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(
      path.join(folder, 'people.csv'),
      ['email,firstName,lastName,role,status', `${admin.email},,,admin,`, `${signer.email},,,custodian,`, `${newcomer},Leela,Rao,,`, 'not-an-address,X,Y,,', `${boss.email},,,signer,`].join('\r\n') + '\r\n',
    );
    await page.reload();
    await expect(page.getByText(u.source.present)).toBeVisible();
    await page.getByRole('button', { name: u.start }).click();
    const report = page.getByTestId('user-sync-report');
    // The job runs in the background; the screen asks again until it is done.
    await expect(report.getByText(u.status.succeeded)).toBeVisible({ timeout: 60_000 });
    await expect(report.getByTestId('user-sync-count-invited')).toContainText('1');
    await expect(report.getByTestId('user-sync-count-roleChanged')).toContainText('1');
    await expect(report.getByTestId('user-sync-change').filter({ hasText: newcomer })).toContainText(u.kinds.invited);
    await expect(report.getByTestId('user-sync-change').filter({ hasText: signer.email })).toContainText(`${en.roles.signer} → ${en.roles.custodian}`);
    await expect(report.getByTestId('user-sync-error')).toHaveCount(2);
    await expect(report.getByTestId('user-sync-error').filter({ hasText: 'not-an-address' })).toContainText(u.codes.email);
    await expect(report.getByTestId('user-sync-error').filter({ hasText: boss.email })).toContainText(u.codes.notAllowed);
    await expect(page.getByRole('button', { name: u.start })).toBeEnabled();
    if (project === 'desktop') await captureBoth(page, 'user-sync-report');
    else await expectNoHorizontalOverflow(page);
  });

  await test.step('the invitation is in the outbox, and the change in the audit log', async () => {
    const adminHeaders = await apiHeadersOf(request, admin.email, admin.password);
    const { messages } = await callData(request, tenantOutbox, { headers: adminHeaders });
    expect(messages.some((m) => m.recipient === newcomer)).toBe(true);
    const { items } = await callData(request, listAdminAudit, { headers: adminHeaders, query: { target: signer.email } });
    expect(items.map((item) => item.action)).toContain('user_role_changed');
  });
});
