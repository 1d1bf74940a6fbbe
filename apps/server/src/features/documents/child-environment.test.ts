import type * as ChildProcess from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHILD_ENVIRONMENT_ALLOWED, childEnvironment } from './child-environment';
import { convertWithLibreOffice } from './office';
import { inspectPdf } from './sandbox';

// The real spawn, watched: what each child is started with is what it can read.
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof ChildProcess>();
  return { ...actual, spawn: vi.fn(actual.spawn) };
});
const { spawn } = await import('node:child_process');

/** What an operator's environment typically holds; none of it may reach a child. */
const SECRETS = {
  SEAL_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
  DATABASE_URL: 'postgres://pakt:db-secret@localhost/pakt',
  SMTP_URL: 'smtp://mailer:smtp-secret@localhost',
  SETUP_TOKEN: 'setup-secret-setup-secret-setup-secret',
  SMS_WEBHOOK_TOKEN: 'sms-secret',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  SOMETHING_ADDED_LATER: 'later-secret',
};

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-child-env-'));
  for (const [name, value] of Object.entries(SECRETS)) vi.stubEnv(name, value);
  vi.mocked(spawn).mockClear();
});
afterEach(() => {
  vi.unstubAllEnvs();
  fs.rmSync(dir, { recursive: true, force: true });
});

const leaks = (env: NodeJS.ProcessEnv | string) => {
  const text = typeof env === 'string' ? env : JSON.stringify(env);
  return Object.entries(SECRETS).filter(([name, value]) => text.includes(name) || text.includes(value)).map(([name]) => name);
};

describe('the environment of child processes', () => {
  it('holds only allowed variables, whatever the server has', () => {
    const env = childEnvironment({ EXTRA: '1' }, { PATH: '/bin', HOME: '/home/pakt', LANG: 'C.UTF-8', ...SECRETS });
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/pakt', LANG: 'C.UTF-8', EXTRA: '1' });
    expect(Object.keys(childEnvironment({}, { ...process.env })).every((name) => (CHILD_ENVIRONMENT_ALLOWED as readonly string[]).includes(name))).toBe(true);
  });

  it("starts the PDF sandbox with none of the server's secrets", async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([200, 200]);
    const file = path.join(dir, 'one.pdf');
    fs.writeFileSync(file, await pdf.save());
    expect(await inspectPdf(file, 10)).toMatchObject({ ok: true, pageCount: 1 });
    expect(spawn).toHaveBeenCalledTimes(1);
    const options = vi.mocked(spawn).mock.calls[0]![2] as { env?: NodeJS.ProcessEnv };
    expect(options.env).toBeDefined();
    expect(leaks(options.env!)).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')("starts LibreOffice with none of the server's secrets, as the child itself sees", async () => {
    // A stand-in for soffice that writes down the environment it was given.
    const seen = path.join(dir, 'seen-env.txt');
    const fake = path.join(dir, 'soffice');
    fs.writeFileSync(fake, `#!/bin/sh\nenv > '${seen}'\n`, { mode: 0o755 });
    const input = path.join(dir, 'letter.docx');
    fs.writeFileSync(input, 'not really a document');
    expect(await convertWithLibreOffice({ binary: fake, input, workDir: dir })).toBeUndefined();
    const env = fs.readFileSync(seen, 'utf8');
    expect(env).toMatch(/^PATH=/m);
    expect(leaks(env)).toEqual([]);
  });
});
