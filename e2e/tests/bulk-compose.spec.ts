import { expect, test } from './fixtures';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createWorkflow, listEpaks, listWorkflowStates, tenantOutbox, updateDocumentTemplate, uploadDocumentTemplate, type TagInput } from '@pakt/domain';
import { callData } from './api';
import { apiHeadersOf, bundles, captureAtBothSizes, expectNoHorizontalOverflow, h1, inviteAndRegister, signInWith, signUpAndConfirm } from './support';

const { en } = bundles;
const copy = en.bulkCompose;
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
const PLAIN = 'plain-1p-libreoffice.pdf';
const SHOTS = '/tmp/h3-shots';

const HEADER = 'step1.recipient1.email,step1.recipient1.firstName,step1.recipient1.lastName,step1.recipient1.phone,step1.recipient1.countryCode,Amount';

test('bulk compose: a CSV of 3 good and 2 bad rows makes 3 started ePaks and offers the 2 refused rows', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const owner = { email: `asha.${project}@bulk.test`, firstName: 'Asha', lastName: 'Kulkarni', orgName: `Kulkarni Lending ${project}`, password: 'Bulk-compose-owner-2025' };
  const custodian = { email: `meera.${project}@bulk.test`, firstName: 'Meera', lastName: 'Joshi', password: 'Bulk-compose-custodian-2025' };
  const templateName = `Loan agreement (${project})`;
  const csv = [
    HEADER,
    `ravi.${project}@bulk.test,Ravi,Patil,555-123-4567,IN,50000`,
    `sita.${project}@bulk.test,Sita,Rane,,,75000`,
    `omar.${project}@bulk.test,Omar,Shaikh,,IN,90000`,
    'not-an-address,Dev,Kale,,,"=HYPERLINK(""http://evil.test"")"',
    `lata.${project}@bulk.test,,Gokhale,,,12000`,
  ].join('\r\n');

  await signUpAndConfirm(page, request, owner);
  const adminHeaders = await apiHeadersOf(request, owner.email, owner.password);
  await inviteAndRegister(request, adminHeaders, custodian, 'custodian');
  const headers = await apiHeadersOf(request, custodian.email, custodian.password);

  await test.step('a document template exists: a workflow with a Client placeholder, a PDF uploaded as a template, its tags for that place', async () => {
    const { states } = await callData(request, listWorkflowStates, { headers });
    const workflow = await callData(request, createWorkflow, {
      headers,
      body: { name: `Client signs ${project}`, signingPolicy: 'ESIGNATURE', steps: [{ workflowStateId: states.find((s) => s.type === 'SIGN')!.workflowStateId, recipients: [{ type: 'placeholder', label: 'Client' }] }] },
    });
    const template = await callData(request, uploadDocumentTemplate, {
      headers,
      body: { name: templateName, workflowId: workflow.workflowId },
      file: { name: PLAIN, mimeType: 'application/pdf', buffer: fs.readFileSync(`${CORPUS}${PLAIN}`) },
    });
    const tag = (init: Partial<TagInput>): TagInput => ({ uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 60, blockWidth: 150, blockHeight: 40, ...init });
    await callData(request, updateDocumentTemplate, {
      headers,
      params: { docTemplateId: template.docTemplateId },
      body: {
        tags: [
          tag({ userEmail: 'slot:1.1', wfsOrderId: 1 }),
          tag({ type: 'reason', userEmail: 'slot:1.1', wfsOrderId: 1, positionY: 150, blockHeight: 20 }),
          tag({ type: 'text', name: 'Amount', tagFor: 'custodian', positionY: 300, blockHeight: 20 }),
        ],
      },
    });
  });

  // The owner confirmed their address in this browser; the custodian signs in afresh.
  await page.context().clearCookies();
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto('/login');
  await expect(h1(page)).toHaveText(en.login.title);
  await signInWith(page, custodian.email, custodian.password);
  await expect(page).not.toHaveURL(/\/login/);

  await test.step('the custodian opens bulk compose from the menu, chooses the template and downloads its CSV header', async () => {
    await page.getByRole('button', { name: en.menu.open }).click();
    await page.getByRole('menuitem', { name: en.menu.compose_bulkcompose }).click();
    await expect(page).toHaveURL(/\/bulkcompose$/);
    await expect(page.getByRole('heading', { name: copy.title, level: 1 })).toBeVisible();
    await page.getByRole('combobox', { name: copy.template }).click();
    await page.getByRole('option', { name: templateName }).click();
    await expect(page.getByTestId('bulk-columns')).toContainText('step1.recipient1.email');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: copy.downloadHeader }).click();
    const header = fs.readFileSync((await (await download).path())!, 'utf8');
    expect(header).toBe(`${HEADER}\r\n`);
  });

  await test.step('uploads 3 good rows and 2 bad ones, and sees progress end with the 2 errors and their codes', async () => {
    await page.locator('input[type="file"]').setInputFiles({ name: 'borrowers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: copy.upload }).click();
    const run = page.getByTestId('bulk-run');
    await expect(run.getByTestId('bulk-counts')).toHaveText('5 of 5 rows done: 3 ePaks made, 2 rows refused.', { timeout: 60_000 });
    const rows = run.getByTestId('bulk-failure');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).locator('td')).toHaveText(['4', 'step1.recipient1.email', '-1', copy.codes.email]);
    await expect(rows.nth(1).locator('td')).toHaveText(['5', 'step1.recipient1.firstName', '-2', copy.codes.firstName]);
    await expect(page.getByTestId('bulk-run-item')).toHaveCount(1);
    await expectNoHorizontalOverflow(page);
    if (project === 'desktop') await captureAtBothSizes(page, SHOTS, 'bulk-compose-done');
  });

  await test.step('downloads the refused rows: cells as uploaded, an errors column, the formula neutralised', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: copy.downloadFailed }).click();
    const text = fs.readFileSync((await (await download).path())!, 'utf8');
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(`${HEADER},errors`);
    expect(lines[1]).toBe(`not-an-address,Dev,Kale,,,"'=HYPERLINK(""http://evil.test"")",step1.recipient1.email: -1 Not an e-mail address.`);
    expect(lines[2]).toContain(`lata.${project}@bulk.test,,Gokhale,,,12000,step1.recipient1.firstName: -2`);
    expect(lines).toHaveLength(3);
  });

  await test.step('the 3 ePaks exist and are started: in the custodian’s Pending folder, their signers asked to sign', async () => {
    const pending = await callData(request, listEpaks, { headers, query: { folder: 'Pending' } });
    expect(pending.total).toBe(3);
    expect(pending.items.map((item) => [item.status, item.subject]).sort()).toEqual([
      ['InProgress', `${templateName} – Omar Shaikh`],
      ['InProgress', `${templateName} – Ravi Patil`],
      ['InProgress', `${templateName} – Sita Rane`],
    ]);
    const { messages } = await callData(request, tenantOutbox, { headers: adminHeaders });
    for (const [who, name] of [['ravi', 'Ravi Patil'], ['sita', 'Sita Rane'], ['omar', 'Omar Shaikh']]) {
      expect(messages.filter((m) => m.recipient === `${who}.${project}@bulk.test`).map((m) => m.subject)).toEqual([`Please sign: ${templateName} – ${name}`]);
    }
  });

  await test.step('the same file again makes nothing new: the page shows the run it made', async () => {
    await page.reload();
    await page.getByRole('combobox', { name: copy.template }).click();
    await page.getByRole('option', { name: templateName }).click();
    await expect(page.getByTestId('bulk-columns')).toBeVisible();
    await page.locator('input[type="file"]').setInputFiles({ name: 'borrowers-again.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: copy.upload }).click();
    await expect(page.getByText(copy.sameFile)).toBeVisible();
    await expect(page.getByTestId('bulk-run').getByTestId('bulk-counts')).toHaveText('5 of 5 rows done: 3 ePaks made, 2 rows refused.');
    await expect(page.getByTestId('bulk-run-item')).toHaveCount(1);
    const pending = await callData(request, listEpaks, { headers, query: { folder: 'Pending' } });
    expect(pending.total).toBe(3);
  });
});
