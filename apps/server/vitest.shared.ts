/** What the server's two Vitest projects share (vitest.config.ts and vitest.mocking.config.ts). */
export const serverTestOptions = {
  environment: 'node' as const,
  // Starts the run's PostgreSQL (embedded, or TEST_DATABASE_URL) and builds one migrated
  // template database that every test file then clones.
  globalSetup: ['./src/test/global-setup.ts'],
  // The AWS SDK warns once per process that its 2027 releases need Node 22; the suite is not the audience.
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/** Files that replace a module (vi.mock): they run in a module registry of their own. */
export const MOCKING_TESTS = ['src/features/documents/child-environment.test.ts'];
