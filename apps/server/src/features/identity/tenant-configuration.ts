import { TenantSettings } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { tenantSettings } from '../../platform/db/schema';

/** A tenant's stored switches; an invalid row counts as "nothing changed" rather than an outage. */
export async function loadTenantSettings(db: Db, tenantId: string, onInvalid?: (error: unknown) => void): Promise<TenantSettings> {
  const [row] = await db.select().from(tenantSettings).where(eq(tenantSettings.tenantId, tenantId));
  return parseTenantSettings(row?.settings, onInvalid);
}

/** A stored settings value (undefined: no row) as settings, by the same rule as loadTenantSettings. */
export function parseTenantSettings(stored: unknown, onInvalid?: (error: unknown) => void): TenantSettings {
  if (stored === undefined || stored === null) return {};
  const parsed = TenantSettings.safeParse(stored);
  if (!parsed.success) {
    onInvalid?.(parsed.error);
    return {};
  }
  return parsed.data;
}
