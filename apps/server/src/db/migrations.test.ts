import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database';

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
      `select table_name from information_schema.tables where table_schema = 'public' order by 1`,
      [],
    );
    expect(rows).toEqual([{ table_name: 'system_settings' }]);
    const applied = await database.executeSql(`select count(*)::int as n from drizzle.__drizzle_migrations`, []);
    expect(applied.rows).toEqual([{ n: 1 }]);
  });
});
