import { CLIENT_TYPE, FeatureFlags, LOGIN_PAGE_DEFAULTS, type PublicConfiguration, ZoomConfiguration } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/database';
import { systemSettings } from '../../platform/db/schema';

/** Overrides an administrator may store; anything else in the row is ignored. */
const PublicOverrides = z
  .object({
    features: FeatureFlags.partial(),
    zoom: ZoomConfiguration.partial(),
  })
  .partial();

export const PUBLIC_SETTINGS_KEY = 'public';

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
  const { db, config } = options;
  const [row] = await db
    .select({ value: systemSettings.value })
    .from(systemSettings)
    .where(eq(systemSettings.key, PUBLIC_SETTINGS_KEY));
  let overrides: z.infer<typeof PublicOverrides> = {};
  if (row) {
    const parsed = PublicOverrides.safeParse(row.value);
    if (parsed.success) overrides = parsed.data;
    else options.onInvalidStored?.(parsed.error);
  }
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
  };
}
