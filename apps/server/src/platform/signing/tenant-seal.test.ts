import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tenantSeals } from '../db/schema';
import { makeTenant } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { KeyVaultError, keyVault, loadMasterKey } from './key-vault';
import { ensureTenantSeal, loadTenantSeal } from './tenant-seal';

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

describe('key vault', () => {
  const vault = keyVault(crypto.randomBytes(32));

  it('opens what it sealed, for the same context only', () => {
    const sealed = vault.seal('-----BEGIN PRIVATE KEY-----\nabc', 'tenant-a:seal');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('PRIVATE KEY');
    expect(vault.open(sealed, 'tenant-a:seal')).toBe('-----BEGIN PRIVATE KEY-----\nabc');
    expect(() => vault.open(sealed, 'tenant-b:seal')).toThrow(KeyVaultError);
    expect(() => keyVault(crypto.randomBytes(32)).open(sealed, 'tenant-a:seal')).toThrow(KeyVaultError);
    expect(() => vault.open('v1.x.y', 'tenant-a:seal')).toThrow(KeyVaultError);
  });

  it('takes SEAL_MASTER_KEY, or makes one key file in the data directory and keeps using it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-vault-'));
    try {
      const given = crypto.randomBytes(32);
      expect(loadMasterKey({ fromEnv: given.toString('base64'), dataDir: dir }).equals(given)).toBe(true);
      expect(() => loadMasterKey({ fromEnv: 'c2hvcnQ=', dataDir: dir })).toThrow(/32 bytes/);
      const made = loadMasterKey({ dataDir: dir });
      expect(loadMasterKey({ dataDir: dir }).equals(made)).toBe(true);
      expect(fs.statSync(path.join(dir, 'seal-master.key')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tenant seal', () => {
  it('is made once, on first need, with its private keys stored sealed', async () => {
    database = await createTestDatabase();
    const vault = keyVault(crypto.randomBytes(32));
    const tenant = await makeTenant(database.db, { name: 'Shah & Sons' });
    expect(await loadTenantSeal(database.db, vault, tenant.id)).toBeNull();
    const [first, second] = await Promise.all([
      ensureTenantSeal({ db: database.db, vault, tenantId: tenant.id, keyAlgorithm: 'ecdsa-p256' }),
      ensureTenantSeal({ db: database.db, vault, tenantId: tenant.id, keyAlgorithm: 'ecdsa-p256' }),
    ]);
    // Both callers end up with the one stored seal.
    expect(second.sealCertificatePem).toBe(first.sealCertificatePem);
    const rows = await database.db.select().from(tenantSeals);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sealPrivateKeySealed).not.toContain('PRIVATE KEY');
    expect(rows[0]!.caPrivateKeySealed).not.toContain('PRIVATE KEY');
    const certificate = new crypto.X509Certificate(first.sealCertificatePem);
    expect(certificate.subject).toContain('Shah & Sons');
    expect(certificate.checkPrivateKey(crypto.createPrivateKey(first.sealPrivateKeyPem))).toBe(true);
    expect(certificate.verify(new crypto.X509Certificate(first.caCertificatePem).publicKey)).toBe(true);
  });
});
