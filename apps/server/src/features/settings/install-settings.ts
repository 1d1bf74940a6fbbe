import type { InstallSettingsView } from '@pakt/domain';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/database';
import { mailDeliveryOf, readPublicOverrides } from './public-settings';

/** GET /root/settings: the install's switches as root's console shows them. */
export async function loadInstallSettings(options: { db: Db; config: Config }): Promise<InstallSettingsView> {
  const chosen = (await readPublicOverrides(options.db)).features?.signup ?? null;
  const byDefault = options.config.features.signup;
  return {
    mailDelivery: mailDeliveryOf(options.config),
    signup: { enabled: chosen ?? byDefault, byDefault, chosen },
  };
}
