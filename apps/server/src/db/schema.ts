import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Instance-wide settings that administrators may change at run time, overriding the defaults
 * that come from the environment. Values are validated by their reader, never trusted as-is.
 */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
