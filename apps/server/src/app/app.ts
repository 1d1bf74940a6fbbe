import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from '../http/app-context';
import { installErrorHandling } from '../http/error-handler';
import { serveWebApp } from '../http/web-app';
import { installSecurityHeaders } from '../http/security-headers';
import { installRateLimits } from '../http/rate-limit';
import { registerIdentityRoutes } from '../features/identity/identity-routes';
import { registerOutboxRoutes } from '../features/admin/outbox-routes';
import { registerDocumentRoutes } from '../features/documents/document-routes';
import { registerAnchorRoutes } from '../features/anchors';
import { registerVerifyRoutes } from '../features/verify';
import { registerWorkflowRoutes } from '../features/workflows/workflow-routes';
import { registerEpakRoutes } from '../features/epaks/epak-routes';
import { registerEpakAuditRoutes } from '../features/epaks/epak-audit-routes';
import { registerEpakActionRoutes } from '../features/epaks/epak-action-routes';
import { registerCeremonyStampRoutes } from '../features/epaks/ceremony-stamp-routes';
import { registerRecipientVerificationRoutes } from '../features/epaks/recipient-verification-routes';
import { registerInboxRoutes } from '../features/inbox/inbox-routes';
import { registerPublicRoutes } from '../features/settings/public-routes';
import { registerInstallSettingsRoutes } from '../features/settings/install-settings-routes';
import { registerAnnouncementRoutes } from '../features/announcements/announcement-routes';
import { registerGroupRoutes } from '../features/admin/group-routes';
import { registerUserAdminRoutes } from '../features/admin/user-admin-routes';
import { registerUserSyncRoutes } from '../features/admin/user-sync-routes';
import { registerSuperadminRoutes } from '../features/admin/superadmin-routes';
import { registerSettingsRoutes } from '../features/admin/settings-routes';
import { registerReasonsRoutes } from '../features/reasons/reasons-routes';
import { registerNotificationRoutes } from '../features/notifications/notification-routes';
import { registerLetterheadRoutes } from '../features/letterheads/letterhead-routes';
import { registerBulkComposeRoutes } from '../features/bulk-compose/bulk-compose-routes';
import { registerRubberStampRoutes } from '../features/rubber-stamps/rubber-stamp-routes';
import { registerDocumentTemplateRoutes } from '../features/document-templates/document-template-routes';
import cookie from '@fastify/cookie';
import formBody from '@fastify/formbody';
import multipart from '@fastify/multipart';

export interface BuildAppOptions {
  context: AppContext;
  logger?: FastifyBaseLogger | boolean | { level: string };
  /** Lets tests watch route registration (an onRoute hook) before any route exists. */
  beforeRoutes?: (app: FastifyInstance) => void;
  /** The rate limits' clock (epoch ms): tests move it instead of waiting for a window to end. */
  now?: () => number;
  /** Lets tests add routes (e.g. one that throws) before the app is ready. */
  beforeReady?: (app: FastifyInstance, context: AppContext) => void | Promise<void>;
}

function loggerOptions(config: AppContext['config']) {
  if (config.logFormat === 'json') return { level: config.logLevel };
  return {
    level: config.logLevel,
    transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } },
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { context } = options;
  const app = Fastify({
    ...(options.logger && typeof options.logger === 'object' && 'child' in options.logger
      ? { loggerInstance: options.logger }
      : { logger: options.logger ?? loggerOptions(context.config) }),
    // Off by default: a client could otherwise claim any address (tokens are bound to addresses).
    trustProxy: context.config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installSecurityHeaders(app, context.config);
  // Reads the web app's httpOnly refresh cookie (http/refresh-cookie.ts); nothing else uses cookies.
  await app.register(cookie);

  options.beforeRoutes?.(app);
  // Before any route, so each public route gets its limit (checked at onRequest, before the body is read).
  await installRateLimits(app, { executor: context.database, limits: context.config.rateLimits, ...(options.now ? { now: options.now } : {}) });
  // The spec's authenticate call is form-encoded.
  await app.register(formBody, { bodyLimit: 16 * 1024 });
  // Uploads are streamed by their handlers; limits are set per call.
  await app.register(multipart);
  registerPublicRoutes(app, context);
  registerInstallSettingsRoutes(app, context);
  registerIdentityRoutes(app, context);
  registerOutboxRoutes(app, context);
  registerDocumentRoutes(app, context);
  registerAnchorRoutes(app, context);
  registerVerifyRoutes(app, context);
  registerWorkflowRoutes(app, context);
  registerEpakRoutes(app, context);
  registerEpakAuditRoutes(app, context);
  registerEpakActionRoutes(app, context);
  registerCeremonyStampRoutes(app, context);
  registerRecipientVerificationRoutes(app, context);
  registerInboxRoutes(app, context);
  registerAnnouncementRoutes(app, context);
  registerGroupRoutes(app, context);
  registerUserAdminRoutes(app, context);
  registerUserSyncRoutes(app, context);
  registerSuperadminRoutes(app, context);
  registerSettingsRoutes(app, context);
  registerReasonsRoutes(app, context);
  registerLetterheadRoutes(app, context);
  registerBulkComposeRoutes(app, context);
  registerRubberStampRoutes(app, context);
  registerDocumentTemplateRoutes(app, context);
  await registerNotificationRoutes(app, context);
  await serveWebApp(app, context.config.webDistDir);
  await options.beforeReady?.(app, context);
  await app.ready();
  return app;
}
