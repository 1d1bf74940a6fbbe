import { defineProject } from 'vitest/config';
import { MOCKING_TESTS, serverTestOptions } from './vitest.shared';

/**
 * The server files that mock a module (vi.mock), each in its own module registry. They need no
 * database, so the run's PostgreSQL is not started a second time for them.
 */
export default defineProject({
  test: { ...serverTestOptions, globalSetup: [], name: 'server-mocking', include: MOCKING_TESTS },
});
