// End-to-end tests: Debian's Chromium drives the built client (client/dist) against a
// `pagoda serve` that e2e/global-setup.ts starts on a free loopback port with a fresh database.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  // failure context and traces, kept out of the tree (node_modules is ignored)
  outputDir: './node_modules/.e2e-results',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.PAGODA_E2E_URL,
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
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
});
