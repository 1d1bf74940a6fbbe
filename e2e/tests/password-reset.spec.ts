import { expect, test } from './fixtures';
import { bundles, fieldLabelled, h1, ROOT, saveScreenshotAtBothSizes, signInWith, signUpThroughApi } from './support';

const { en } = bundles;

test('forgotten password: the reset mail in the root outbox leads to a new password that signs in', async ({
  page,
  request,
  server,
}, testInfo) => {
  // Its screens are checked and pictured at both sizes from this run (it has no phone run): more
  // than the default allows on a busy machine.
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const person = {
    email: `kiran.${project}@reset.test`,
    firstName: 'Kiran',
    lastName: 'Das',
    orgName: `Das & Co ${project}`,
    password: 'First-password-2025',
    newPassword: 'Second-password-2025',
  };

  await test.step('an account exists (signed up through the API)', async () => {
    await signUpThroughApi(request, person);
  });

  await test.step('the person asks for a reset link from the login page', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: en.login.forgotPassword }).click();
    await expect(page).toHaveURL(/\/forgetpassword$/);
    await expect(h1(page)).toHaveText(en.forgotPassword.title);
    await fieldLabelled(page, en.common.email).fill('not an address');
    await page.getByRole('button', { name: en.forgotPassword.submit }).click();
    await expect(page.getByText(en.common.emailInvalid)).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'forgetpassword');

    await fieldLabelled(page, en.common.email).fill(person.email);
    await page.getByRole('button', { name: en.forgotPassword.submit }).click();
    await expect(page.getByRole('status')).toHaveText(en.forgotPassword.sentOutbox.replace('{{email}}', person.email));
    await saveScreenshotAtBothSizes(page, 'forgetpassword-sent');
  });

  let resetLink = '';
  await test.step('root finds the mail in the console outbox and follows its link', async () => {
    await page.getByRole('link', { name: en.common.backToLogin }).click();
    await signInWith(page, ROOT.email, ROOT.password);
    await expect(page).toHaveURL(/\/root$/);
    await page.getByRole('tab', { name: en.root.tabs.outbox }).click();
    const mail = page
      .getByRole('listitem', { name: 'Reset your Pakt password' })
      .filter({ hasText: en.outbox.to.replace('{{recipient}}', person.email) })
      .first();
    await expect(mail).toBeVisible();
    const link = mail.getByRole('link', { name: /\/resetpassword\?token=/ });
    resetLink = (await link.getAttribute('href')) ?? '';
    expect(resetLink).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/resetpassword\\?token=.+`));
    await saveScreenshotAtBothSizes(page, 'root-outbox');
    await link.click();
    await expect(page).toHaveURL(/\/resetpassword\?token=/);
  });

  await test.step('the rules are checked as the new password is typed, then it is set', async () => {
    await expect(h1(page)).toHaveText(en.resetPassword.title);
    await fieldLabelled(page, en.changePassword.newPassword).fill('short');
    await expect(page.locator('[data-rule="minLength"]')).toHaveAttribute('data-met', 'false');
    await fieldLabelled(page, en.common.confirmPassword).fill('short');
    await page.getByRole('button', { name: en.resetPassword.submit }).click();
    await expect(page.getByText(en.passwordInvalid)).toBeVisible();
    await saveScreenshotAtBothSizes(page, 'resetpassword');

    await fieldLabelled(page, en.changePassword.newPassword).fill(person.newPassword);
    await fieldLabelled(page, en.common.confirmPassword).fill(person.newPassword);
    await page.getByRole('button', { name: en.resetPassword.submit }).click();
    await expect(page.getByRole('status')).toHaveText(en.resetPassword.done);
    await saveScreenshotAtBothSizes(page, 'resetpassword-done');
    // Root is still signed in in this browser: the sign-in button signs them out first.
    await page.getByRole('button', { name: en.common.signIn }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(h1(page)).toHaveText(en.login.title);
  });

  await test.step('the link works once only', async () => {
    await page.goto(new URL(resetLink).pathname + new URL(resetLink).search);
    await fieldLabelled(page, en.changePassword.newPassword).fill('Third-password-2025');
    await fieldLabelled(page, en.common.confirmPassword).fill('Third-password-2025');
    await page.getByRole('button', { name: en.resetPassword.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(en.resetPassword.invalidLink);
    await saveScreenshotAtBothSizes(page, 'resetpassword-used');
  });

  await test.step('the old password no longer works; the new one signs in', async () => {
    await page.goto('/login');
    await signInWith(page, person.email, person.password);
    await expect(page.getByRole('alert')).toHaveText(en.login.errors.wrongPassword);
    await fieldLabelled(page, en.common.password).fill(person.newPassword);
    await page.getByRole('button', { name: en.login.submit }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(h1(page)).toHaveText(en.home.welcome.replace('{{name}}', person.firstName));
  });
});
