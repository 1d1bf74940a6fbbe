import { defineProject } from 'vitest/config';
import { MOCKING_TESTS, serverTestOptions } from './vitest.shared';

export default defineProject({
  test: {
    ...serverTestOptions,
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: MOCKING_TESTS,
    // The files of a worker share one module registry. Each file still builds its own app on its
    // own database (test/test-app.ts), but the server's modules (Fastify, drizzle, pdf-lib, the
    // AWS SDK) load once per worker instead of once per file. A file that mocks a module would
    // reach the files after it, so those run in the server-mocking project (vitest.mocking.config.ts).
    isolate: false,
  },
});
