import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, request, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test';
import { REPO_ROOT, SCREENSHOTS_DIR } from './paths';

export function settings() {
  const baseUrl = process.env.E2E_BASE_URL;
  const adminEmail = process.env.E2E_ADMIN_EMAIL;
  const adminPassword = process.env.E2E_ADMIN_PASSWORD;
  if (!baseUrl || !adminEmail || !adminPassword) throw new Error('Run the e2e suite through playwright.config.ts (its global setup starts the app).');
  return { baseUrl, adminEmail, adminPassword, distDir: process.env.E2E_DIST_DIR ?? '.next-e2e' };
}

/**
 * How long a step that hashes a password may take: scrypt at 128 MiB is about 0.8 s of CPU here,
 * a password change hashes twice (the current one checked, the new one stored), and on a loaded
 * two-core machine the first sign-in of a run also waits for the app's first renders. Ten seconds
 * failed under load twice; what the step must show is unchanged.
 */
const PASSWORD_HASHING_STEP_MS = 30_000;

/** Signs in through the form, as a person would, and waits for the dashboard. */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${settings().baseUrl}/admin/login`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible({ timeout: PASSWORD_HASHING_STEP_MS });
}

/**
 * Opens the dashboard as the seeded admin on the one session the global setup signed in for the
 * whole run, for tests that do not test signing in: each sign-in through the form hashes the
 * password (scrypt, 128 MiB), and some fifty tests began with one. A test that signs the admin out
 * or tests the form signs in through it (signInThroughForm) on a session of its own.
 */
export async function openConsoleAsAdmin(page: Page): Promise<void> {
  const { baseUrl } = settings();
  const cookie = process.env.E2E_ADMIN_SESSION_COOKIE;
  if (!cookie) throw new Error('Run the e2e suite through playwright.config.ts (its global setup signs the admin in).');
  const separator = cookie.indexOf('=');
  await page.context().addCookies([{ name: cookie.slice(0, separator), value: cookie.slice(separator + 1), url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
  await page.goto(`${baseUrl}/admin`);
  await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
}

/**
 * A user's first sign-in with a password someone else set (an initial or reset one): the console
 * opens only "Cambie su contraseña" until they choose their own; this chooses one, signs in with
 * it and waits for the dashboard. Returns the chosen password.
 */
export async function signInFirstTime(page: Page, email: string, givenPassword: string): Promise<string> {
  const chosen = `frase propia ${Math.random().toString(36).slice(2, 8)} del volcán de Agua`;
  await page.goto(`${settings().baseUrl}/admin/login`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(givenPassword);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByRole('heading', { name: 'Cambie su contraseña', level: 1 })).toBeVisible({ timeout: PASSWORD_HASHING_STEP_MS });
  await page.getByLabel('Contraseña actual', { exact: true }).fill(givenPassword);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(chosen);
  await page.getByLabel('Repita la nueva contraseña').fill(chosen);
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByText('Contraseña cambiada. Inicie sesión con la nueva contraseña.')).toBeVisible({ timeout: PASSWORD_HASHING_STEP_MS });
  await signInThroughForm(page, email, chosen);
  return chosen;
}

/** Creates a console user through the form on /admin/usuarios (signed in as an admin); returns the password shown once. */
export async function createUserThroughForm(page: Page, email: string, name: string): Promise<string> {
  await page.goto(`${settings().baseUrl}/admin/usuarios`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Nombre', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Crear usuario' }).click();
  return (await page.getByTestId('new-user-password').textContent())!.trim();
}

/** A full-page screenshot kept in e2e-artifacts/<database>/screenshots and attached to the report. */
/**
 * Saves and attaches a screenshot of the whole page, or of what the window shows with
 * `{ fullPage: false }` (/docs is so long that a full capture took over a minute on a busy machine).
 */
export async function screenshot(page: Page, testInfo: TestInfo, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** The id under which the build registered a server action, from Next's server-reference manifest. */
export function serverActionId(exportedName: string): string {
  const manifestPath = path.join(REPO_ROOT, settings().distDir, 'server', 'server-reference-manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { node: Record<string, { exportedName?: string; filename?: string }> };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === exportedName && entry.filename?.startsWith('app/admin/'));
  if (!found) throw new Error(`No server action named ${exportedName} in ${manifestPath}`);
  return found[0];
}

/**
 * Calls a server action the way React does (POST with the Next-Action header and the arguments
 * encoded as JSON), from inside the page so the browser's cookies and Origin go with it, but
 * without any button: this is what someone with the console's JavaScript at hand can send.
 * Returns the raw React Server Components answer.
 */
export async function callServerAction(page: Page, exportedName: string, input: Record<string, unknown>): Promise<string> {
  const actionId = serverActionId(exportedName);
  return page.evaluate(
    async ({ actionId, input }) => {
      const response = await fetch(window.location.href, {
        method: 'POST',
        headers: { 'Next-Action': actionId, Accept: 'text/x-component', 'Content-Type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify([input]),
      });
      return `${response.status} ${await response.text()}`;
    },
    { actionId, input },
  );
}

/** An API client that signs in "from" a given IP (the app trusts one proxy hop in the e2e run). */
export async function clientFrom(ip: string): Promise<APIRequestContext> {
  return request.newContext({ baseURL: settings().baseUrl, extraHTTPHeaders: { 'x-forwarded-for': ip } });
}

/** next-auth's CSRF token for a client; its cookie stays in the client's jar. */
export async function csrfToken(client: APIRequestContext): Promise<string> {
  return ((await (await client.get('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
}

/**
 * One sign-in attempt through next-auth's credentials endpoint: null when a session cookie was
 * issued, otherwise the refusal's code (lib/flows/auth/sign-in-errors.ts), as next-auth passes it on.
 */
export async function attemptSignIn(client: APIRequestContext, email: string, password: string, token?: string): Promise<string | null> {
  const response = await client.post('/api/auth/callback/credentials', {
    form: { csrfToken: token ?? (await csrfToken(client)), email, password, json: 'true' },
  });
  const signedIn = response.headersArray().some((header) => header.name.toLowerCase() === 'set-cookie' && header.value.includes('session-token='));
  if (signedIn) return null;
  const { url } = (await response.json()) as { url: string };
  return new URL(url).searchParams.get('error') ?? `sin sesión (HTTP ${response.status()}, ${url})`;
}

/**
 * Collects what the browser reports as blocked by the Content-Security-Policy on this page: an
 * inline script without the request's nonce would show up here (and the page would not work).
 */
export function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** The demo integration's token, which the seed prints once (read by the global setup). */
export function demoToken(): string {
  const token = process.env.E2E_DEMO_TOKEN;
  if (!token) throw new Error('Run the e2e suite through playwright.config.ts (its global setup reads the demo token).');
  return token;
}

/**
 * axe-core's serious and critical findings on the page as it is now (WCAG 2.x A and AA rules and
 * best practices), one line per finding with the elements involved, so a failure says what to fix.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // Legacy mode runs axe.run in the page itself. The default injects axe-core into the page, then
  // opens a blank tab, injects it again and finishes the run there (needed only for cross-origin
  // iframes, which no page here has). e2e/every-page.spec.ts as a whole (app, chromium and
  // Playwright) cost 113.1 CPU seconds that way against 87.4 in legacy mode (64.9 with no check at
  // all), for the same findings (docs/performance.md, "CI time").
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).setLegacyMode().analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * The text of each line an element's text is laid out on, as the reader sees it: each character's
 * box, from a Range, starts a new line when it sits lower than the previous one.
 */
export async function laidOutLines(locator: Locator): Promise<string[]> {
  return locator.evaluate((element) => {
    const lines: string[] = [];
    let lineTop: number | undefined;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let index = 0; index < text.length; index++) {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const box = range.getClientRects().item(0);
        // Collapsed white space has no box.
        if (!box) continue;
        if (lineTop === undefined || box.top > lineTop + box.height / 2) {
          lines.push('');
          lineTop = box.top;
        }
        lines.push(`${lines.pop() ?? ''}${text.charAt(index)}`);
      }
    }
    return lines;
  });
}

/** A value read as one word (a route, a request id) on one line, or broken only after a `/`. */
export async function expectKeptWhole(locator: Locator, what: string): Promise<void> {
  const lines = await laidOutLines(locator);
  expect(lines.join('').replace(/\s/g, ''), what).toBe(((await locator.textContent()) ?? '').replace(/\s/g, ''));
  expect(
    lines.slice(0, -1).filter((line) => !line.endsWith('/')),
    `${what} broken inside a word: ${JSON.stringify(lines)}`,
  ).toEqual([]);
}

export { csvRows } from '../../tests/support/csv-rows';
