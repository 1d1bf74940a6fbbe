import { createHash, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type CertificateAnchor, DomainError, ResponseCode, type VerificationReport } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { tenants, tenantSeals } from '../../platform/db/schema';
import { REPO_ROOT } from '../../paths';
import { INSTALL_SEAL_NAME, loadInstallSeal } from '../../platform/signing/install-seal';
import type { KeyVault } from '../../platform/signing/key-vault';
import { DEFAULT_SANDBOX_LIMITS, type DocumentLimits, runScriptInSandbox, type SandboxLimits, withReceivedPdf } from '../documents';
import { findPaktRecord } from '../epaks';
import { AnalysisResult } from './verify-protocol';

/**
 * The public verifier (issue 20): a dropped PDF is received like an upload (size limit, content
 * checked), read in a bounded child process (verify-child.ts: signatures, revisions, forgery
 * classes), and never stored. The server adds what only it knows: whether a signer's certificate
 * was issued by one of its tenants' certificate authorities, and whether the file is a Pakt
 * document of this install (features/epaks/public-record.ts).
 */

/** The child: beside the bundle in a build (dist/), the built one when running from source, else the source through tsx. */
function verifyChild(): { script: string; nodeArgs: string[] } {
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), 'verify-child.mjs');
  if (fs.existsSync(beside)) return { script: beside, nodeArgs: [] };
  const built = path.join(REPO_ROOT, 'apps/server/dist/verify-child.mjs');
  if (fs.existsSync(built)) return { script: built, nodeArgs: [] };
  return { script: path.join(REPO_ROOT, 'apps/server/src/features/verify/verify-child.ts'), nodeArgs: ['--import', 'tsx'] };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** This install's certificate authorities, its tenants' and its own (the seal of its reports), to say who vouches for a certificate. */
async function tenantAuthorities(db: Db, vault: KeyVault): Promise<{ tenantName: string; certificate: X509Certificate }[]> {
  const rows = await db.select({ tenantName: tenants.name, pem: tenantSeals.caCertificatePem }).from(tenantSeals).innerJoin(tenants, eq(tenants.id, tenantSeals.tenantId));
  const install = await loadInstallSeal(db, vault).catch(() => null);
  if (install) rows.push({ tenantName: INSTALL_SEAL_NAME, pem: install.caCertificatePem });
  return rows.flatMap((row) => {
    try {
      return [{ tenantName: row.tenantName, certificate: new X509Certificate(row.pem) }];
    } catch {
      return [];
    }
  });
}

function anchorOf(der: string | null, authorities: readonly { tenantName: string; certificate: X509Certificate }[]): { anchor: CertificateAnchor; anchorTenant: string | null } {
  if (!der) return { anchor: 'none', anchorTenant: null };
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(der, 'base64'));
  } catch {
    return { anchor: 'none', anchorTenant: null };
  }
  // Issued by a tenant's CA: its name matches and the CA's key verifies the certificate's signature.
  const issuer = authorities.find((authority) => certificate.checkIssued(authority.certificate) && certificate.verify(authority.certificate.publicKey));
  return issuer ? { anchor: 'thisInstall', anchorTenant: issuer.tenantName } : { anchor: 'other', anchorTenant: null };
}

export async function verifyDocument(options: {
  db: Db;
  vault: KeyVault;
  workRoot: string;
  fileName: string;
  stream: Readable;
  limits: Pick<DocumentLimits, 'maxBytes' | 'parsers'>;
  sandbox?: SandboxLimits;
  signal?: AbortSignal | undefined;
  now: Date;
}): Promise<VerificationReport> {
  return withReceivedPdf({
    workRoot: options.workRoot,
    stream: options.stream,
    limits: options.limits,
    signal: options.signal,
    work: async (file) => {
      const child = verifyChild();
      const [sha256, analysed] = await Promise.all([
        sha256Of(file.path),
        runScriptInSandbox({ ...child, job: { input: file.path }, schema: AnalysisResult, limits: options.sandbox ?? DEFAULT_SANDBOX_LIMITS }),
      ]);
      if (!analysed.ok) {
        throw new DomainError(ResponseCode.INVALID_DOCUMENT, analysed.message, analysed.reason === 'tooLarge' ? { httpStatus: 413 } : {});
      }
      const authorities = analysed.signatures.some((signature) => signature.certificate) ? await tenantAuthorities(options.db, options.vault) : [];
      const signatures = analysed.signatures.map(({ certificate, ...signature }) => ({ ...signature, ...anchorOf(certificate, authorities) }));
      const notAllowed = analysed.revisions.some((revision) => revision.changes.some((change) => !change.allowed));
      const verdict: VerificationReport['verdict'] =
        signatures.length === 0
          ? 'unsigned'
          : signatures.some((signature) => signature.integrity === 'broken')
            ? 'invalid'
            : signatures.some((signature) => signature.integrity === 'unverifiable')
              ? 'unknown'
              : notAllowed || analysed.warnings.length > 0
                ? 'changed'
                : 'valid';
      return {
        fileName: options.fileName,
        sha256,
        size: file.size,
        verdict,
        certificationLevel: analysed.certificationLevel,
        signatures,
        revisions: analysed.revisions,
        warnings: analysed.warnings,
        pakt: await findPaktRecord(options.db, sha256),
        checkedOn: options.now.toISOString(),
      };
    },
  });
}
