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
  },
});
