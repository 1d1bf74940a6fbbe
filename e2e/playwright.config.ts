import { defineConfig, devices } from '@playwright/test';

// E2E_PORT lets two runs (say, two people's) share a machine without fighting over a port.
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? '3100'}`;

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  // Journeys must pass first time: a retry would hide exactly the flakiness we want to see.
  retries: 0,
  // A journey takes 5 to 60 s alone; on a machine shared with other suites the 30 s default ran
  // out at the last step of journeys that were passing (profile, compose). Slower is not flaky.
  timeout: 90_000,
  // The same for a single check: 5 s ran close on a loaded machine for a page that renders a PDF.
  // A passing check returns as soon as it holds, so this costs nothing when all is well.
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download needs internet we do not have.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'phone',
      // A Chromium phone profile (mobile user agent) at the narrowest common width.
      use: { ...devices['Pixel 7'], viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
    },
  ],
  webServer: {
    command: 'node ../scripts/e2e-server.mjs',
    url: `${baseURL}/msbapi/public/alive`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
