import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // A page test takes 0.2 to 3 s alone; sharing the cores with the server suites, a few came
    // near Vitest's 5 s default. Slower is not flaky.
    testTimeout: 15_000,
    // The UI libraries are bundled once (esbuild) instead of imported file by file in every test
    // file's fresh module registry: the run's import time fell from 58 s to 26 s (of a 198 s run).
    deps: {
      optimizer: {
        client: {
          enabled: true,
          include: ['@mantine/core', '@mantine/hooks', '@mantine/form', 'react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react-router', '@tanstack/react-query', 'i18next', 'react-i18next', 'zod'],
        },
      },
    },
  },
});
