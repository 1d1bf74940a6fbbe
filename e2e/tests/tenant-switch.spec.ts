import { expect, test } from './fixtures';
import { authenticate, createTenant, joinWithInvitation, registerUserTenant } from '@pakt/domain';
import { callData } from './api';
import { bundles, ensureRoot, ROOT, saveScreenshotAtBothSizes, signInWith } from './support';

const { en } = bundles;

test('a person in two organisations switches between them, and each shows only its own data', async ({ page, request }, testInfo) => {
  await ensureRoot(request);
  const rootToken = (await callData(request, authenticate, { body: { username: ROOT.email, password: ROOT.password } })).accessToken;

  // The files a worker runs share its server: names unique to this run keep them apart.
  const stamp = `${testInfo.project.name}-${Date.now().toString(36)}`;
  const email = `switch-${stamp}@pakt.test`;
  const password = 'Switch-password-42';
  const [alpha, beta] = [`Alpha ${stamp}`, `Beta ${stamp}`];
  for (const tenantName of [alpha, beta]) {
    const created = await callData(request, createTenant, {
      headers: { authorization: `Bearer ${rootToken}` },
      body: { tenantName, admin: { email, firstName: 'Uma', lastName: 'Pillai' } },
    });
    const link = new URL(created.inviteLink);
    const invitation = { inviteCode: link.searchParams.get('invite')!, tenantUuid: link.searchParams.get('tenant')! };
    // The first invitation makes the account; the second is accepted from a session of it, since
    // an existing account never types its password into a registration (issue 17).
    if (tenantName === alpha) {
      await callData(request, registerUserTenant, {
        body: { userEmail: email, firstName: 'Uma', lastName: 'Pillai', newPassword: password, confirmPassword: password, ...invitation },
      });
    } else {
      const { accessToken } = await callData(request, authenticate, { body: { username: email, password } });
      await callData(request, joinWithInvitation, { headers: { authorization: `Bearer ${accessToken}` }, body: invitation });
    }
  }

  await page.goto('/login');
  await signInWith(page, email, password);
  await expect(page.getByTestId('current-tenant')).toHaveText(alpha);
  const selector = page.getByRole('combobox', { name: en.shell.tenant });
  await expect(selector.locator('option')).toHaveText([alpha, beta]);

  // The outbox is read with the tenant header: each organisation shows its own mail only.
  const invitationTo = (tenant: string) => page.getByText(`You are invited to ${tenant} on Pakt`, { exact: true });
  await page.goto('/admin?section=outbox');
  await expect(invitationTo(alpha)).toBeVisible();
  await expect(invitationTo(beta)).toHaveCount(0);

  await selector.selectOption({ label: beta });
  await expect(invitationTo(beta)).toBeVisible();
  await expect(invitationTo(alpha)).toHaveCount(0);
  await saveScreenshotAtBothSizes(page, 'tenant-switch-outbox');

  // The choice survives a reload and is what the home page reports.
  await page.reload();
  await expect(invitationTo(beta)).toBeVisible();
  await page.goto('/');
  await expect(page.getByTestId('current-tenant')).toHaveText(beta);
  await saveScreenshotAtBothSizes(page, 'tenant-switch-home');
});
