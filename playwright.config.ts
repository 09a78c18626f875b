import fs from 'node:fs';
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

// Which group runs each spec in CI (tests/README.md, "Which e2e specs run on both databases",
// names each spec's vitest counterpart). A spec runs on one database when the vitest suite checks,
// on both databases, over HTTP against the built app or through the services behind it, the data
// the spec reads and the database behaviour it exercises (a write made once however often it is
// sent, throttle counters, sessions and tokens ended at once, the bulk runner and the outboxes):
// what the spec adds is what only a browser shows (layout at 390 and 1366 px, axe, the keyboard,
// dialogs, a page that refreshes itself, redirects, the words on a page). A spec would run on both
// only for a database behaviour no vitest file can check on both; today there is none. A spec that
// shows more on one database runs there (verify-now: on PostgreSQL a table lock holds the run to
// show its progress). .ci/run runs the three groups at once, each with E2E_SPEC_GROUP set, its own
// app, database and chromium: two runs left a third of the two cores idle (the app waits on
// chromium and chromium on the app), so the groups are of about equal time, the sums of their tests'
// times (docs/performance.md, "CI time"). Without the variable every spec runs, on the database given.
const SPEC_GROUPS = {
  pglite: {
    database: 'pglite',
    specs: [
      'every-page.spec.ts',
      'records-search.spec.ts',
      'billing.spec.ts',
      'portal-notifications.spec.ts',
      'integration-details.spec.ts',
      'users.spec.ts',
      'sessions.spec.ts',
      'portal-top-ups.spec.ts',
      'portal-credentials.spec.ts',
      'integration-notifications.spec.ts',
      'forms.spec.ts',
      'portal-vigilancia.spec.ts',
      'portal-online-payment.spec.ts',
      'tokens.spec.ts',
    ],
  },
  postgresql: {
    database: 'postgresql',
    specs: [
      'integration-sections.spec.ts',
      'docs.spec.ts',
      'phone-layout.spec.ts',
      'sign-in-return.spec.ts',
      'portal-views.spec.ts',
      'portal-records.spec.ts',
      'support-question.spec.ts',
      'personal-data.spec.ts',
      'portal-home.spec.ts',
      'record-detail.spec.ts',
      'console-details.spec.ts',
      'sign-in-messages.spec.ts',
      'integrations-list.spec.ts',
      'verify-now.spec.ts',
      'console-lotes.spec.ts',
      'portal-lotes.spec.ts',
      'support-request-ids.spec.ts',
    ],
  },
  'postgresql-b': {
    database: 'postgresql',
    specs: [
      'status-page.spec.ts',
      'lotes-live.spec.ts',
      'lists.spec.ts',
      'console.spec.ts',
      'sign-in-throttling.spec.ts',
      'portal-access.spec.ts',
      'password-change.spec.ts',
      'two-factor.spec.ts',
      'alerts.spec.ts',
      'constancias.spec.ts',
    ],
  },
} as const;
const EVERY_SPEC = fs.readdirSync(path.join(import.meta.dirname, 'e2e')).filter((name) => name.endsWith('.spec.ts'));
for (const spec of EVERY_SPEC) {
  // A new or renamed spec is given to a group, never silently left out of CI or run twice.
  const groups = Object.entries(SPEC_GROUPS).filter(([, group]) => (group.specs as readonly string[]).includes(spec));
  if (groups.length !== 1) throw new Error(`playwright.config.ts: e2e/${spec} is in ${groups.length} of SPEC_GROUPS, not one`);
}
for (const [name, group] of Object.entries(SPEC_GROUPS)) {
  for (const spec of group.specs) if (!EVERY_SPEC.includes(spec)) throw new Error(`playwright.config.ts: SPEC_GROUPS.${name} lists e2e/${spec}, which does not exist`);
}
const GROUP = process.env.E2E_SPEC_GROUP;
if (GROUP !== undefined && !(GROUP in SPEC_GROUPS)) throw new Error(`E2E_SPEC_GROUP must be one of ${Object.keys(SPEC_GROUPS).join(', ')}, not ${GROUP}`);
const SPEC_GROUP = GROUP === undefined ? undefined : SPEC_GROUPS[GROUP as keyof typeof SPEC_GROUPS];
if (SPEC_GROUP && SPEC_GROUP.database !== E2E_DATABASE_KIND) throw new Error(`E2E_SPEC_GROUP=${GROUP} runs on ${SPEC_GROUP.database}, and this run is on ${E2E_DATABASE_KIND} (DATABASE_URL)`);

export default defineConfig({
  testDir: './e2e',
  testMatch: SPEC_GROUP ? SPEC_GROUP.specs.map((spec) => `**/${spec}`) : '**/*.spec.ts',
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
