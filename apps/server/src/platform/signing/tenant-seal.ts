import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { tenants, tenantSeals } from '../db/schema';
import { DEFAULT_SEAL_KEY_ALGORITHM, type SealKeyAlgorithm } from './algorithms';
import type { KeyVault } from './key-vault';
import { createTenantCa, issueSealCertificate } from './tenant-ca';

/** What sealing needs of a tenant: the seal's certificate and key, and the CA above it. */
export interface TenantSeal {
  readonly keyAlgorithm: SealKeyAlgorithm;
  readonly caCertificatePem: string;
  readonly sealCertificatePem: string;
  readonly sealPrivateKeyPem: string;
}

/**
 * The tenant's seal, made with its CA the first time it is needed (an RSA 3072 key takes about a
 * second, which sign-up should not pay for a tenant that may never sign). Two processes asking at
 * once may both make one; the insert keeps the first and both then use what was stored.
 */
export async function ensureTenantSeal(options: { db: Db; vault: KeyVault; tenantId: string; keyAlgorithm?: SealKeyAlgorithm; now?: Date }): Promise<TenantSeal> {
  const { db, vault, tenantId } = options;
  const stored = await loadTenantSeal(db, vault, tenantId);
  if (stored) return stored;
  const [tenant] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  if (!tenant) throw new Error(`no tenant ${tenantId}`);
  const keyAlgorithm = options.keyAlgorithm ?? DEFAULT_SEAL_KEY_ALGORITHM;
  const dates = options.now ? { now: options.now } : {};
  const ca = await createTenantCa({ tenantName: tenant.name, keyAlgorithm, ...dates });
  const seal = await issueSealCertificate({ ca, tenantName: tenant.name, ...dates });
  await db
    .insert(tenantSeals)
    .values({
      tenantId,
      keyAlgorithm,
      caCertificatePem: ca.certificatePem,
      caPrivateKeySealed: vault.seal(ca.privateKeyPkcs8Pem, `${tenantId}:ca`),
      sealCertificatePem: seal.certificatePem,
      sealPrivateKeySealed: vault.seal(seal.privateKeyPkcs8Pem, `${tenantId}:seal`),
    })
    .onConflictDoNothing();
  return (await loadTenantSeal(db, vault, tenantId))!;
}

export async function loadTenantSeal(db: Db, vault: KeyVault, tenantId: string): Promise<TenantSeal | null> {
  const [row] = await db.select().from(tenantSeals).where(eq(tenantSeals.tenantId, tenantId));
  if (!row) return null;
  return {
    keyAlgorithm: row.keyAlgorithm as SealKeyAlgorithm,
    caCertificatePem: row.caCertificatePem,
    sealCertificatePem: row.sealCertificatePem,
    // Bound to its tenant: a sealed key copied onto another tenant's row does not open.
    sealPrivateKeyPem: vault.open(row.sealPrivateKeySealed, `${tenantId}:seal`),
  };
}
