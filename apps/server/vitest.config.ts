import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Builds one migrated database (PGlite data dir, or a PostgreSQL template database when
    // TEST_DATABASE_URL is set) that every test file then clones.
    globalSetup: ['./src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
