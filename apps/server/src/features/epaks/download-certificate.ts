import { Readable } from 'node:stream';
import { CERTIFICATE_FILE_NAME, type EpakStatus, invalidInput } from '@pakt/domain';
import { loadVisibleEpak } from './access';
import { ENDED_STATUSES, type EpakDownload, type EpakDownloadOptions } from './download';
import { servableCompletionCertificate } from './stored-certificate';

/**
 * GET …/certificate (issue 21): the certificate of completion alone, for whoever may download the
 * ePak (its owner and its recipients; anyone else 404). It is the same stored, sealed file the
 * zip carries, checked against its recorded SHA-256 before it goes out; an ePak still under way
 * has none yet (-6).
 */
export async function prepareCertificateDownload(options: EpakDownloadOptions): Promise<EpakDownload> {
  const { epak } = await loadVisibleEpak(options.db, options.actor, options.epakId);
  if (!ENDED_STATUSES.includes(epak.status as EpakStatus)) {
    throw invalidInput(`The certificate of completion is made when the ePak ends; this one is ${epak.status}.`, [{ path: 'status', message: epak.status }]);
  }
  const bytes = await servableCompletionCertificate({
    db: options.db,
    storage: options.storage,
    vault: options.vault,
    ...(options.keyAlgorithm ? { keyAlgorithm: options.keyAlgorithm } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    tenantId: epak.tenantId,
    actorId: options.actor.userId,
    epak,
    now: options.now,
  });
  return { contentType: 'application/pdf', size: bytes.length, fileName: CERTIFICATE_FILE_NAME, stream: Readable.from([bytes]) };
}
