import { keyVault, loadMasterKey } from '../platform/signing/key-vault';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context';
import { buildApp } from './app';
import type { Config } from '../platform/config';
import { type Database, openDatabase, openEmbeddedDatabase } from '../platform/db/database';
import { type JobQueue, startJobQueue } from '../platform/jobs/job-queue';
import { SWEEP_TEMPORARY_FILES_CRON, sweepTemporaryFilesJob } from '../platform/storage/sweep-temporary-files';
import { SWEEP_ORPHAN_BLOBS_CRON, sweepOrphanBlobsJob } from '../platform/storage/sweep-orphan-blobs';
import { EXPIRE_EPAKS_CRON, expireEpaksJob } from '../features/epaks/expire-epaks';
import { BUILD_CERTIFICATES_CRON, buildCertificatesJob } from '../features/epaks/stored-certificate';
import { pinnedDocumentOpener } from '../features/epaks/pinned-document';
import { deliverAfterCommit } from '../platform/mail/queued-mail';
import { USER_SYNC_SWEEP_CRON, userSyncJob } from '../features/admin/user-sync-job';
import { BULK_COMPOSE_SWEEP_CRON, bulkComposeJob } from '../features/bulk-compose/bulk-compose-job';
import { PURGE_RATE_LIMIT_COUNTERS_CRON, purgeRateLimitCountersJob } from '../http/purge-rate-limit-counters';
import { seedDemo } from '../features/identity/demo';
import { deliverOutboxJob, deliverSmsJob, smtpTransport } from '../platform/mail/mail-delivery';
import { prepareFirstRun } from '../features/identity/first-run';
import { openFileStorage } from '../platform/storage/open-file-storage';
import { VERSION } from './version';

export interface RunningServer {
  app: FastifyInstance;
  context: AppContext;
  url: string;
  close(): Promise<void>;
}

/**
 * Opens the database (locking an embedded one), applies migrations, starts the job queue and
 * listens. Everything opened is closed again if a later step fails, so a refused start leaves
 * no lock behind.
 */
export async function startServer(config: Config, options: { demo?: boolean } = {}): Promise<RunningServer> {
  const opened: { database?: Database; jobs?: JobQueue; app?: FastifyInstance } = {};
  let stopMailListener: (() => Promise<void>) | undefined;
  const close = async () => {
    await stopMailListener?.();
    await opened.app?.close();
    await opened.jobs?.stop();
    await opened.database?.close();
  };
  try {
    opened.database = config.databaseUrl
      ? await openDatabase({ url: config.databaseUrl })
      : await openEmbeddedDatabase({
          directory: path.join(config.dataDir, 'db'),
          // Only what PostgreSQL says is wrong; its start-up and checkpoint lines are not news.
          onLog: (line) => console.error(`[postgres] ${line}`),
          onUnexpectedExit: (code, signal) => {
            // Nothing can be served or saved without it; a supervisor (or the person) starts us again,
            // and the next start recovers the cluster from its write-ahead log.
            console.error(`The embedded PostgreSQL stopped unexpectedly (${signal ?? `exit ${code}`}); Pakt stops too.`);
            process.exit(1);
          },
        });
    await opened.database.migrate();
    const demoAccounts = options.demo ? await seedDemo(opened.database.db) : undefined;
    const setupLink = await prepareFirstRun({
      db: opened.database.db,
      publicUrl: config.publicUrl,
      configuredToken: config.setupToken,
    });
    const storage = await openFileStorage(config.storage);
    const context: AppContext = {
      config,
      version: VERSION,
      database: opened.database,
      storage,
      vault: keyVault(loadMasterKey({ fromEnv: config.sealMasterKey, dataDir: config.dataDir })),
      jobs: undefined,
      nudgeMailDelivery: () => {},
    };
    const app = await buildApp({ context });
    opened.app = app;
    if (config.jobsEnabled) {
      opened.jobs = await startJobQueue({
        executor: opened.database,
        onError: (error) => app.log.error({ err: error }, 'job queue error'),
      });
      context.jobs = opened.jobs;
      const sweep = sweepTemporaryFilesJob({
        storage,
        onSwept: (removed) => removed > 0 && app.log.info({ removed }, 'removed abandoned partial uploads'),
      });
      await opened.jobs.register(sweep);
      await opened.jobs.schedule(sweep, SWEEP_TEMPORARY_FILES_CRON, { olderThanMinutes: 60 });
      const sweepOrphans = sweepOrphanBlobsJob({
        db: opened.database.db,
        storage,
        onSwept: (deleted) => deleted > 0 && app.log.info({ deleted }, 'deleted stored files that nothing references'),
        onUnsettled: (candidates) => app.log.warn({ candidates }, 'orphan sweep postponed: database transactions stayed open too long'),
      });
      await opened.jobs.register(sweepOrphans);
      await opened.jobs.schedule(sweepOrphans, SWEEP_ORPHAN_BLOBS_CRON, { olderThanMinutes: 24 * 60 });
      const expire = expireEpaksJob({
        db: opened.database.db,
        mail: { publicUrl: config.publicUrl, linkDays: config.signingLinkDays },
        onExpired: (ids) => ids.length > 0 && app.log.info({ ePakIds: ids }, 'ePaks expired'),
        onError: (ePakId, error) => app.log.error({ err: error, ePakId }, 'could not expire an ePak'),
      });
      await opened.jobs.register(expire);
      await opened.jobs.schedule(expire, EXPIRE_EPAKS_CRON, {});
      const certificates = buildCertificatesJob({
        db: opened.database.db,
        storage,
        vault: context.vault,
        keyAlgorithm: config.sealKeyAlgorithm,
        publicUrl: config.publicUrl,
        onBuilt: (ids) => ids.length > 0 && app.log.info({ ePakIds: ids }, 'certificates of completion built'),
        onError: (ePakId, error) => app.log.error({ err: error, ePakId }, 'could not build a certificate of completion'),
      });
      await opened.jobs.register(certificates);
      await opened.jobs.schedule(certificates, BUILD_CERTIFICATES_CRON, {});
      const userSync = userSyncJob(context, (error) => app.log.error({ err: error }, 'a user sync-up failed'));
      await opened.jobs.register(userSync);
      await opened.jobs.schedule(userSync, USER_SYNC_SWEEP_CRON, {});
      const bulkCompose = bulkComposeJob(context, (error) => app.log.error({ err: error }, 'a bulk compose run failed'));
      await opened.jobs.register(bulkCompose);
      await opened.jobs.schedule(bulkCompose, BULK_COMPOSE_SWEEP_CRON, {});
      const purgeCounters = purgeRateLimitCountersJob({ executor: opened.database });
      await opened.jobs.register(purgeCounters);
      await opened.jobs.schedule(purgeCounters, PURGE_RATE_LIMIT_COUNTERS_CRON, {});
      const jobs = opened.jobs;
      const deliveries = [
        config.smtp && deliverOutboxJob({ db: opened.database.db, openAttachment: pinnedDocumentOpener(opened.database.db, storage), transport: smtpTransport(config.smtp.url), from: config.smtp.from }),
        config.sms && deliverSmsJob({ db: opened.database.db, ...config.sms }),
      ].filter((job) => !!job);
      for (const deliver of deliveries) {
        await jobs.register(deliver);
        // The sweep catches what a nudge missed (a crash between commit and send, the relay down).
        await jobs.schedule(deliver, '* * * * *', {});
      }
      if (deliveries.length > 0) {
        context.nudgeMailDelivery = () => {
          for (const deliver of deliveries) {
            jobs.send(deliver, {}).catch((error: unknown) => app.log.error({ err: error }, `could not enqueue ${deliver.name}`));
          }
        };
        // Every commit that queues mail nudges delivery (the outbox's trigger), whoever queued it.
        stopMailListener = await deliverAfterCommit(opened.database, () => context.nudgeMailDelivery());
      }
    }
    const url = await app.listen({ host: config.host, port: config.port });
    app.log.info(
      { database: opened.database.kind, dataDir: config.dataDir },
      `Pakt ${VERSION} is listening on ${url.replace('0.0.0.0', 'localhost')}`,
    );
    if (setupLink) {
      // Printed, not only logged: the person who just ran `npm start` must see it whatever the log level.
      console.log(
        `\n  Pakt needs its first-run setup. Open this one-time link to create the root account:\n\n    ${setupLink}\n\n  (A new link is made at every start until setup is done.)\n`,
      );
    }
    if (!config.smtp) {
      // Said at every start: on an install without mail, invitations, resets and signing links
      // reach people only through root, who must know it is their job (docs/security.md).
      app.log.warn(
        'SMTP_URL is not set: no mail is delivered. Invitations, password resets and signing links wait in the outbox, ' +
          'whose texts only root reads (/root, Outbox) to pass them on; tenant admins see to whom and when, never a link or code. ' +
          'Set SMTP_URL for any install with real users.',
      );
    }
    if (options.demo) {
      console.log(
        demoAccounts
          ? `\n  Demo data seeded. These passwords are shown this once:\n\n${demoAccounts
              .map((a) => `    ${a.role.padEnd(12)} ${a.email.padEnd(32)} ${a.password}`)
              .join('\n')}\n\n  Sign in at ${config.publicUrl}/login\n`
          : '\n  The demo tenant exists already; its passwords were printed when it was seeded.\n',
      );
    }
    return { app, context, url, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
