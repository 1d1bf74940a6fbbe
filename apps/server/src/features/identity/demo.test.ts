import { DEFAULT_PASSWORD_CONFIG, passwordProblems } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { seedDemo } from './demo';
import { rootExists } from './first-run';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('demo seed', () => {
  it('creates root and one user of every tenant role, each with a fresh password that signs in', async () => {
    const accounts = (await seedDemo(t.database.db))!;
    expect(accounts.map((a) => a.role).sort()).toEqual(['admin', 'custodian', 'registrar', 'root', 'signer', 'submitter', 'super_admin']);
    expect(new Set(accounts.map((a) => a.password)).size).toBe(accounts.length);
    expect(await rootExists(t.database.db)).toBe(true);
    for (const account of accounts) {
      expect(passwordProblems(account.password, DEFAULT_PASSWORD_CONFIG)).toEqual([]);
      const grant = await signIn(t.app, account.email, account.password);
      if (account.role === 'root') expect(grant.user.isRoot).toBe(true);
      else expect(grant.user.tenants).toEqual([expect.objectContaining({ tenantName: 'Pakt Demo', userRole: account.role })]);
    }
  });

  it('does nothing the second time', async () => {
    expect(await seedDemo(t.database.db)).toBeUndefined();
  });
});
