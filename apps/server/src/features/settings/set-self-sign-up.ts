import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { systemSettings } from '../../platform/db/schema';
import { PUBLIC_SETTINGS_KEY } from './public-settings';

/**
 * Root switches self sign-up on or off for the whole install (null: back to the default). The
 * choice is one key of the stored public overrides, changed in place in one statement, so
 * whatever else is stored there (zoom, other flags) is left as it was.
 */
export async function setSelfSignUp(options: { db: Db; enabled: boolean | null }): Promise<void> {
  const path = sql`'{features,signup}'`;
  const change =
    options.enabled === null
      ? sql`coalesce(${systemSettings.value}, '{}'::jsonb) #- ${path}`
      : sql`jsonb_set(jsonb_set(coalesce(${systemSettings.value}, '{}'::jsonb), '{features}', coalesce(${systemSettings.value} -> 'features', '{}'::jsonb)), ${path}, ${JSON.stringify(options.enabled)}::jsonb)`;
  await options.db
    .insert(systemSettings)
    .values({ key: PUBLIC_SETTINGS_KEY, value: options.enabled === null ? {} : { features: { signup: options.enabled } } })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value: change, updatedAt: new Date() } });
}
