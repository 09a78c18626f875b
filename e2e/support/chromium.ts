import fs from 'node:fs';

/**
 * Debian's old headless shell (apt-get install chromium-headless-shell): the same Chromium build as
 * /usr/bin/chromium without the full browser's windowing layer, which is what Playwright itself
 * runs headless tests in (its own downloads are never used here). On six specs, A/B on this
 * two-core machine, it took 30 % less CPU than /usr/bin/chromium --headless (134 CPU seconds
 * instead of 190) and 20 % less time, with the same results (docs/decisions.md, "e2e in the
 * headless shell").
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** Debian's full chromium, run headless: what the suite uses where the shell is not installed. */
const FULL_CHROMIUM = '/usr/bin/chromium';

/** The browser binary the e2e suite and the browser tests drive: E2E_CHROMIUM_PATH, else the shell if installed, else chromium. */
export function chromiumExecutable(): string {
  const chosen = process.env.E2E_CHROMIUM_PATH;
  if (chosen) return chosen;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
