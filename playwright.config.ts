import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumExecutable } from './e2e/support/chromium';
import { ARTIFACTS_DIR, E2E_DATABASE_KIND } from './e2e/support/paths';

// End-to-end tests of the console in Debian's chromium (apt-get install chromium-headless-shell,
// or chromium; e2e/support/chromium.ts): Playwright's own browser downloads are never used.
// e2e/support/global-setup.ts builds the app into .next-e2e, starts the upstream simulator and the
// app on a fresh database (embedded PGlite, or a new database on the PostgreSQL server DATABASE_URL
// names), and exports the seeded admin's credentials to the tests.
const CHROMIUM = chromiumExecutable();

// Specs that check how pages look and read (nothing scrolls sideways at 390 and 1366 px, axe-core,
// legible charts, /docs' text and examples), not what the database does: the pages they open are
// opened on both databases by the other specs, which check what each page does. .ci/run runs the
// two databases' suites side by side, both CPU-bound on two cores, and sets E2E_SPLIT_LAYOUT_SPECS
// so that each of these runs once, on one database, in halves of about equal time (every-page
// about 108 s; docs and phone-layout about 60 s and 45 s). Without the variable every spec runs.
const LAYOUT_SPECS_BY_DATABASE = {
  pglite: ['every-page.spec.ts'],
  postgresql: ['docs.spec.ts', 'phone-layout.spec.ts'],
} as const;
const LAYOUT_SPECS_LEFT_TO_THE_OTHER_DATABASE = process.env.E2E_SPLIT_LAYOUT_SPECS
  ? LAYOUT_SPECS_BY_DATABASE[E2E_DATABASE_KIND === 'pglite' ? 'postgresql' : 'pglite'].map((spec) => `**/${spec}`)
  : [];

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  testIgnore: LAYOUT_SPECS_LEFT_TO_THE_OTHER_DATABASE,
  // One app, one embedded database, and scrypt at 128 MiB per sign-in: tests run one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  globalSetup: './e2e/support/global-setup.ts',
  outputDir: path.join(ARTIFACTS_DIR, 'test-results'),
  reporter: [['list'], ['html', { outputFolder: path.join(ARTIFACTS_DIR, 'report'), open: 'never' }]],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    locale: 'es-GT',
    timezoneId: 'America/Guatemala',
    screenshot: 'only-on-failure',
    // No trace by default: recording one (DOM snapshots and screencast frames at every step) cost
    // chromium and Playwright about a fifth of the suite's CPU even for the tests that pass, and CI
    // keeps no artifacts to read it from. To see a failure step by step, run the spec again with
    // `npx playwright test e2e/that.spec.ts --trace retain-on-failure` (tests/README.md).
    trace: 'off',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
