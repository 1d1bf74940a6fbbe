import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/database';
import { systemSettings } from '../db/schema';
import { DEFAULT_SEAL_KEY_ALGORITHM, type SealKeyAlgorithm } from './algorithms';
import type { KeyVault } from './key-vault';
import { createTenantCa, issueSealCertificate } from './tenant-ca';
import type { TenantSeal } from './tenant-seal';

/**
 * The install's own seal, for what the install says in its own name rather than a tenant's: the
 * public verifier's reports, which anyone may ask for and no tenant stands behind. A CA and a seal
 * certificate made on first use like a tenant's (tenant-ca.ts), kept in system_settings with the
 * private keys sealed by the master key, each bound to its purpose.
 */

export const INSTALL_SEAL_NAME = 'Pakt verification service';
const KEY = 'install_seal';

const StoredInstallSeal = z.object({
  keyAlgorithm: z.enum(['rsa-3072', 'ecdsa-p256']),
  caCertificatePem: z.string(),
  caPrivateKeySealed: z.string(),
  sealCertificatePem: z.string(),
  sealPrivateKeySealed: z.string(),
});

export async function loadInstallSeal(db: Db, vault: KeyVault): Promise<TenantSeal | null> {
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.key, KEY));
  const stored = row ? StoredInstallSeal.safeParse(row.value) : null;
  if (!stored?.success) return null;
  return {
    keyAlgorithm: stored.data.keyAlgorithm,
    caCertificatePem: stored.data.caCertificatePem,
    sealCertificatePem: stored.data.sealCertificatePem,
    sealPrivateKeyPem: vault.open(stored.data.sealPrivateKeySealed, 'install:seal'),
  };
}

/** The install's seal, made now if it has none; two processes at once keep the first one stored. */
export async function ensureInstallSeal(options: { db: Db; vault: KeyVault; keyAlgorithm?: SealKeyAlgorithm }): Promise<TenantSeal> {
  const stored = await loadInstallSeal(options.db, options.vault);
  if (stored) return stored;
  const keyAlgorithm = options.keyAlgorithm ?? DEFAULT_SEAL_KEY_ALGORITHM;
  const ca = await createTenantCa({ tenantName: INSTALL_SEAL_NAME, keyAlgorithm });
  const seal = await issueSealCertificate({ ca, tenantName: INSTALL_SEAL_NAME });
  await options.db
    .insert(systemSettings)
    .values({
      key: KEY,
      value: {
        keyAlgorithm,
        caCertificatePem: ca.certificatePem,
        caPrivateKeySealed: options.vault.seal(ca.privateKeyPkcs8Pem, 'install:ca'),
        sealCertificatePem: seal.certificatePem,
        sealPrivateKeySealed: options.vault.seal(seal.privateKeyPkcs8Pem, 'install:seal'),
      },
    })
    .onConflictDoNothing();
  return (await loadInstallSeal(options.db, options.vault))!;
}
