import { expect, test } from './fixtures';
import { generate } from 'otplib';
import { bundles, fieldLabelled, h1, logOutAs, mailedLink, saveScreenshotAtBothSizes, signInWith } from './support';

const { en } = bundles;

test('sign up, confirm the address, enrol an authenticator on the profile, and sign in with a code from it', async ({ page, request }, testInfo) => {
  // Its screens are checked and pictured at both sizes from this run (it has no phone run): more
  // than the default allows on a busy machine.
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const person = {
    email: `meera.${project}@signup.test`,
    firstName: 'Meera',
    lastName: 'Nair',
    orgName: `Nair Associates ${project}`,
    password: 'Signup-password-2025',
  };
  const name = `${person.firstName} ${person.lastName}`;

  await test.step('the login page offers sign-up; the form creates the organisation', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: en.login.signupLink }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(h1(page)).toHaveText(en.signup.title);
    await fieldLabelled(page, en.signup.orgName).fill(person.orgName);
    await fieldLabelled(page, en.common.email).fill(person.email);
    await fieldLabelled(page, en.common.firstName).fill(person.firstName);
    await fieldLabelled(page, en.common.lastName).fill(person.lastName);
    await fieldLabelled(page, en.signup.jobTitle).fill('Partner');
    await fieldLabelled(page, en.common.password).fill(person.password);
    await fieldLabelled(page, en.common.confirmPassword).fill(`${person.password}x`);
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page.getByText(en.passwordMissMatch)).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'signup');

    await fieldLabelled(page, en.common.confirmPassword).fill(person.password);
    await page.getByRole('button', { name: en.signup.submit }).click();
    await expect(page).toHaveURL(/\/thanks$/);
    await expect(h1(page)).toHaveText(en.thanks.title);
    await expect(page.getByText(en.thanks.checkMailOutbox.replace('{{email}}', person.email))).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'thanks-check-mail');
  });

  await test.step('signing in before confirming is refused, and mails the link again', async () => {
    await page.getByRole('link', { name: en.common.signIn }).click();
    await signInWith(page, person.email, person.password);
    await expect(page.getByRole('alert')).toHaveText(en.login.errors.pendingOutbox);
    await saveScreenshotAtBothSizes(page, 'login-pending');
  });

  await test.step('the mailed link confirms the address and signs the person in', async () => {
    const link = await mailedLink(request, 'Confirm your email address for Pakt', person.email);
    expect(link).toMatch(/\/thanks\?verify=pkv_/);
    await page.goto(link);
    await expect(
      page.getByText(en.thanks.ready.replace('{{name}}', person.firstName).replace('{{tenant}}', person.orgName)),
    ).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'thanks');
    await page.getByRole('link', { name: en.common.goHome }).click();
    await expect(page.getByTestId('current-role')).toHaveText(en.roles.admin);
    await expect(page.getByTestId('current-tenant')).toHaveText(person.orgName);
  });

  await test.step('the header menu shows what an admin may reach', async () => {
    await page.getByRole('button', { name: en.menu.open }).click();
    await expect(page.getByRole('menuitem', { name: en.menu.admin, exact: true })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: en.menu.dashboard, exact: true })).toHaveAttribute('href', '/dashboard');
    await expect(page.getByRole('menuitem', { name: new RegExp(`^${en.menu.reports}`) })).toBeDisabled();
    await saveScreenshotAtBothSizes(page, 'main-menu');
    await page.getByRole('menuitem', { name: en.menu.admin, exact: true }).click();
    // Administration opens on the people of the organisation; the tenant's mail is a tab away.
    await expect(h1(page)).toHaveText(en.users.title);
    await page.getByRole('tab', { name: en.outbox.title }).click();
    await expect(h1(page)).toHaveText(en.outbox.title);
    await expect(page.getByText(en.outbox.tenantIntro.replace('{{tenant}}', person.orgName))).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'tenant-outbox');
  });

  await test.step('the change-password form explains a wrong current password', async () => {
    await page.goto('/changepassword');
    await expect(h1(page)).toHaveText(en.changePassword.title);
    await fieldLabelled(page, en.changePassword.oldPassword).fill('Not-my-password-1');
    await fieldLabelled(page, en.changePassword.newPassword).fill('Another-password-2025');
    await fieldLabelled(page, en.common.confirmPassword).fill('Another-password-2025');
    await page.getByRole('button', { name: en.changePassword.submit }).click();
    await expect(page.getByText(en.changePassword.wrongOld)).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'changepassword');
  });

  let secret = '';
  let recoveryCodes: string[] = [];
  await test.step('the profile enrols an authenticator app', async () => {
    await page.getByRole('button', { name: en.shell.accountMenu.replace('{{name}}', name) }).click();
    await page.getByRole('menuitem', { name: en.shell.profile }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(h1(page)).toHaveText(en.profile.title);
    await expect(fieldLabelled(page, en.profile.fields.firstName)).toHaveValue(person.firstName);
    await expect(page.getByTestId('two-factor-status')).toHaveText(en.profile.twoFactor.off);
    await saveScreenshotAtBothSizes(page, 'profile');

    const section = page.getByRole('region', { name: en.profile.twoFactor.heading });
    await section.getByRole('button', { name: en.profile.twoFactor.enable }).click();
    await fieldLabelled(page, en.profile.twoFactor.password).fill('Wrong-password-1');
    await page.getByRole('button', { name: en.profile.twoFactor.continue }).click();
    await expect(section.getByRole('alert')).toHaveText(en.profile.twoFactor.wrongPassword);
    await fieldLabelled(page, en.profile.twoFactor.password).fill(person.password);
    await page.getByRole('button', { name: en.profile.twoFactor.continue }).click();

    await expect(page.getByRole('img', { name: en.profile.twoFactor.qrLabel })).toBeVisible();
    secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await section.scrollIntoViewIfNeeded();
    await saveScreenshotAtBothSizes(page, 'profile-totp-enrol');

    await fieldLabelled(page, en.authenticate.appCode).fill(await generate({ secret }));
    await page.getByRole('button', { name: en.profile.twoFactor.confirm }).click();

    // The ten recovery codes, shown this once; the dialog closes only once they are stored.
    const codesDialog = page.getByRole('dialog', { name: en.profile.recoveryCodes.title });
    await expect(codesDialog.getByTestId('recovery-code')).toHaveCount(10);
    recoveryCodes = (await codesDialog.getByTestId('recovery-code').allTextContents()).map((code) => code.trim());
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    await expect(codesDialog.getByText(en.profile.recoveryCodes.storeNow)).toBeVisible();
    await expect(codesDialog.getByRole('button', { name: en.profile.recoveryCodes.done })).toBeDisabled();
    await saveScreenshotAtBothSizes(page, 'profile-recovery-codes');
    await codesDialog.getByRole('checkbox', { name: en.profile.recoveryCodes.acknowledge }).check();
    await codesDialog.getByRole('button', { name: en.profile.recoveryCodes.done }).click();
    await expect(codesDialog).toBeHidden();
    await expect(section.getByRole('status')).toHaveText(en.profile.twoFactor.enabledNotice);
    await expect(page.getByTestId('recovery-codes-left')).toHaveText(en.profile.recoveryCodes.left_other.replace('{{count}}', '10'));
    await expect(page.getByTestId('two-factor-status')).toHaveText(en.profile.twoFactor.on);
    await saveScreenshotAtBothSizes(page, 'profile-totp-on');
  });

  await test.step('signing in again asks for a code from the app', async () => {
    await logOutAs(page, name);
    await signInWith(page, person.email, person.password);
    await expect(page).toHaveURL(/\/authenticate$/);
    await expect(h1(page)).toHaveText(en.authenticate.title);
    await expect(page.getByText(en.authenticate.totpIntro)).toBeVisible();

    await fieldLabelled(page, en.authenticate.appCode).fill('000000');
    await page.getByRole('button', { name: en.authenticate.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(
      `${en.authenticate.errors.wrongCode} ${en.authenticate.attemptsLeft_other.replace('{{count}}', '4')}`,
    );
    await saveScreenshotAtBothSizes(page, 'authenticate');

    // A code is good once, and the enrolment used this 30 seconds' code: the app's next one.
    await fieldLabelled(page, en.authenticate.appCode).fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole('button', { name: en.authenticate.submit }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(h1(page)).toHaveText(en.home.welcome.replace('{{name}}', person.firstName));
    await expect(page.getByTestId('current-tenant')).toHaveText(person.orgName);
  });

  await test.step('a saved recovery code signs in in place of the app', async () => {
    await logOutAs(page, name);
    await signInWith(page, person.email, person.password);
    await expect(page).toHaveURL(/\/authenticate$/);
    await page.getByRole('button', { name: en.authenticate.recovery.open }).click();
    await expect(page.getByText(en.authenticate.recovery.intro)).toBeVisible();
    await fieldLabelled(page, en.authenticate.recovery.label).fill(recoveryCodes[0]!);
    await saveScreenshotAtBothSizes(page, 'authenticate-recovery-code');
    await page.getByRole('button', { name: en.authenticate.submit }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/profile');
    await expect(page.getByTestId('recovery-codes-left')).toHaveText(en.profile.recoveryCodes.left_other.replace('{{count}}', '9'));
  });
});
