import { z } from 'zod';
import { RenderMode } from '../constants';
import { LanguageCode } from '../languages';
import { defineEndpoint } from './contract';

export const AliveData = z.object({
  status: z.literal('UP'),
  version: z.string(),
  database: z.enum(['embedded', 'postgres']),
  serverTime: z.iso.datetime(),
});
export type AliveData = z.infer<typeof AliveData>;

export const publicAlive = defineEndpoint({
  method: 'GET',
  path: '/msbapi/public/alive',
  access: 'public',
  summary: 'Liveness: the server answers and its database responds.',
  response: AliveData,
});

export const ZoomConfiguration = z.object({
  min: z.number(),
  max: z.number(),
  step: z.number(),
  allowZoom: z.boolean(),
  defaultRenderMode: RenderMode,
});
export type ZoomConfiguration = z.infer<typeof ZoomConfiguration>;

export const FeatureFlags = z.object({
  signup: z.boolean(),
  teamRooms: z.boolean(),
  pdfCompare: z.boolean(),
  features: z.boolean(),
  newViewSwitch: z.boolean(),
});
export type FeatureFlags = z.infer<typeof FeatureFlags>;

/**
 * Whether mail leaves the install: 'smtp' when a mail server delivers it (SMTP_URL), 'outbox'
 * when it only waits in the outbox for an administrator to pass on. Screens say "sent" only for
 * the first.
 */
export const MAIL_DELIVERIES = ['smtp', 'outbox'] as const;
export const MailDelivery = z.enum(MAIL_DELIVERIES);
export type MailDelivery = z.infer<typeof MailDelivery>;

/** What the login page needs before anyone signs in. Nothing here may be secret. */
export const PublicConfiguration = z.object({
  productName: z.string(),
  version: z.string(),
  clientType: z.string(),
  supportedLanguages: z.array(LanguageCode).min(1),
  defaultLanguage: LanguageCode,
  features: FeatureFlags,
  zoom: ZoomConfiguration,
  login: z.object({ rememberMe: z.boolean(), loginImages: z.boolean() }),
  mailDelivery: MailDelivery,
});
export type PublicConfiguration = z.infer<typeof PublicConfiguration>;

export const publicConfiguration = defineEndpoint({
  method: 'GET',
  path: '/msbapi/public/configuration',
  access: 'public',
  summary: 'Public settings for the login page: languages, feature flags, zoom.',
  response: PublicConfiguration,
});
