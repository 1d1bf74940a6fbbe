import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './app-context';
import { installErrorHandling } from './http/error-handler';
import { serveWebApp } from './http/web-app';
import { installSecurityHeaders } from './http/security-headers';
import { installRateLimits } from './http/rate-limit';
import { registerIdentityRoutes } from './routes/identity-routes';
import { registerOutboxRoutes } from './routes/outbox-routes';
import { registerDocumentRoutes } from './routes/document-routes';
import { registerWorkflowRoutes } from './routes/workflow-routes';
import { registerEpakRoutes } from './routes/epak-routes';
import { registerEpakAuditRoutes } from './routes/epak-audit-routes';
import { registerEpakActionRoutes } from './routes/epak-action-routes';
import { registerInboxRoutes } from './routes/inbox-routes';
import { registerPublicRoutes } from './routes/public-routes';
import { registerAnnouncementRoutes } from './routes/announcement-routes';
import { registerGroupRoutes } from './routes/group-routes';
import { registerUserAdminRoutes } from './routes/user-admin-routes';
import { registerUserSyncRoutes } from './routes/user-sync-routes';
import { registerSuperadminRoutes } from './routes/superadmin-routes';
import { registerSettingsRoutes } from './routes/settings-routes';
import { registerReasonsRoutes } from './routes/reasons-routes';
import { registerNotificationRoutes } from './routes/notification-routes';
import { registerLetterheadRoutes } from './routes/letterhead-routes';
import { registerBulkComposeRoutes } from './routes/bulk-compose-routes';
import { registerRubberStampRoutes } from './routes/rubber-stamp-routes';
import { registerDocumentTemplateRoutes } from './routes/document-template-routes';
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
  registerIdentityRoutes(app, context);
  registerOutboxRoutes(app, context);
  registerDocumentRoutes(app, context);
  registerWorkflowRoutes(app, context);
  registerEpakRoutes(app, context);
  registerEpakAuditRoutes(app, context);
  registerEpakActionRoutes(app, context);
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
