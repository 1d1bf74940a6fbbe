import { CLIENT_TYPE, FeatureFlags, LOGIN_PAGE_DEFAULTS, type MailDelivery, type PublicConfiguration, ZoomConfiguration } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/database';
import { systemSettings } from '../../platform/db/schema';

/** Overrides an administrator may store; anything else in the row is ignored. */
export const PublicOverrides = z
  .object({
    features: FeatureFlags.partial(),
    zoom: ZoomConfiguration.partial(),
  })
  .partial();
export type PublicOverrides = z.infer<typeof PublicOverrides>;

export const PUBLIC_SETTINGS_KEY = 'public';

/** Whether mail leaves the install or only waits in the outbox for an administrator to pass on. */
export const mailDeliveryOf = (config: Config): MailDelivery => (config.smtp ? 'smtp' : 'outbox');

/** What is stored over the environment's defaults; a stored value that no longer validates counts as none. */
export async function readPublicOverrides(db: Db, onInvalidStored?: (error: z.ZodError) => void): Promise<PublicOverrides> {
  const [row] = await db
    .select({ value: systemSettings.value })
    .from(systemSettings)
    .where(eq(systemSettings.key, PUBLIC_SETTINGS_KEY));
  if (!row) return {};
  const parsed = PublicOverrides.safeParse(row.value);
  if (parsed.success) return parsed.data;
  onInvalidStored?.(parsed.error);
  return {};
}

/**
 * Whether the server takes a self sign-up: root's choice, else the install's default (config.ts:
 * FEATURE_SIGNUP, or on only where mail is delivered). The login page reads the same value.
 */
export async function selfSignUpOpen(options: { db: Db; config: Config }): Promise<boolean> {
  return (await readPublicOverrides(options.db)).features?.signup ?? options.config.features.signup;
}

/**
 * Public configuration = environment defaults, overridden by what is stored in system_settings.
 * A stored value that no longer validates is ignored (and logged) rather than breaking login.
 */
export async function readPublicConfiguration(options: {
  db: Db;
  config: Config;
  version: string;
  onInvalidStored?: (error: z.ZodError) => void;
}): Promise<PublicConfiguration> {
  const { config } = options;
  const overrides = await readPublicOverrides(options.db, options.onInvalidStored);
  const defaults = { ...config.zoom, defaultRenderMode: 'fitToWidth' as const };
  const zoom = { ...defaults, ...overrides.zoom };
  return {
    productName: 'Pakt',
    version: options.version,
    clientType: CLIENT_TYPE,
    supportedLanguages: config.supportedLanguages,
    defaultLanguage: config.defaultLanguage,
    features: { ...config.features, ...overrides.features },
    // A stored zoom that is not finite or not ordered would break the viewer: keep the defaults.
    zoom: zoom.min > 0 && zoom.min < zoom.max && zoom.step > 0 ? zoom : defaults,
    login: { ...LOGIN_PAGE_DEFAULTS },
    mailDelivery: mailDeliveryOf(config),
  };
}
