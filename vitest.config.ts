import { defineConfig } from 'vitest/config';

// One Vitest run over the workspace; each project has its own config beside its code.
export default defineConfig({
  test: {
    projects: ['packages/domain', 'apps/server', 'apps/web'],
  },
});
