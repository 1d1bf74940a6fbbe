import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One Vitest run over the workspace; each project has its own config beside its code.
export default defineConfig({
  test: {
    projects: ['packages/domain', 'apps/server', 'apps/server/vitest.mocking.config.ts', 'apps/web'],
    // Vitest's default is one worker fewer than the cores: on a 2-core machine, one worker, which
    // ran the suite end to end in a line (23 min). The server files mostly wait on databases,
    // child processes and sockets, so a worker per core keeps both busy.
    maxWorkers: os.availableParallelism(),
  },
});
