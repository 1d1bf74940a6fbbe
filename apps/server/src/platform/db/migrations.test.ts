import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../paths';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('migrations', () => {
  it('create the schema and are safe to apply again at every start', async () => {
    await database.migrate();
    await database.migrate();
    const { rows } = await database.executeSql(
      `select table_name from information_schema.tables where table_schema = 'public' order by table_name collate "C"`,
      [],
    );
    expect(rows.map((r) => (r as { table_name: string }).table_name)).toEqual([
      'admin_audit_log',
      'announcements',
      'bulk_compose_failures',
      'bulk_compose_runs',
      'document_templates',
      'documents',
      'epak_activities',
      'epak_attachments',
      'epak_certificates',
      'epak_document_revisions',
      'epak_documents',
      'epak_inbox',
      'epak_inbox_counts',
      'epak_inbox_versions',
      'epak_links',
      'epak_recipients',
      'epak_steps',
      'epak_tag_values',
      'epak_user_states',
      'epaks',
      'group_members',
      'groups',
      'invitations',
      'letterhead_templates',
      'login_throttles',
      'memberships',
      'notifications',
      'one_time_tokens',
      'otp_challenges',
      'outbox',
      'password_configs',
      'password_history',
      'password_resets',
      'rate_limit_counters',
      'reasons',
      'rubber_stamp_shares',
      'rubber_stamps',
      'sessions',
      'system_settings',
      'tenant_seals',
      'tenant_settings',
      'tenants',
      'two_factor_recovery_codes',
      'user_sync_runs',
      'users',
      'workflow_states',
      'workflows',
    ]);
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    const applied = await database.executeSql(`select count(*)::int as n from drizzle.__drizzle_migrations`, []);
    expect(applied.rows).toEqual([{ n: journal.entries.length }]);
  });
});
