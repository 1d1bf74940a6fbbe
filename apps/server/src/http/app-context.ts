import type { Config } from '../platform/config';
import type { Database } from '../platform/db/database';
import type { JobQueue } from '../platform/jobs/job-queue';
import type { KeyVault } from '../platform/signing/key-vault';
import type { FileStorage } from '../platform/storage/file-storage';

/** The services a request handler may use, built once at start and passed down explicitly. */
export interface AppContext {
  config: Config;
  version: string;
  database: Database;
  storage: FileStorage;
  /** Opens the tenants' sealed signing keys (SEAL_MASTER_KEY or the data dir's key file). */
  vault: KeyVault;
  /** Absent when JOBS_ENABLED=false (e.g. a web-only process in a scaled-out install). */
  jobs: JobQueue | undefined;
  /**
   * Call after a transaction that queued mail or SMS has committed: delivery starts now instead
   * of at the next minute's sweep. A no-op without SMTP / an SMS relay, or without jobs.
   */
  nudgeMailDelivery(): void;
}
