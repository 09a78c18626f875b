// Issue 34's "done when", in chromium, on two instances sharing PostgreSQL and Redis: people use
// the real pages of instance A in a browser (Playwright's library driving Debian's chromium) while
// the lookups are checked on both instances over HTTP, and a real webhook receiver and a real SMTP
// server take what the instances send.
//   1. A developer, signed in through the portal's form, rotates the token with a 24 h overlap on
//      Credenciales: the old and the new token answer 200 on both instances; the developer revokes
//      the old one and both instances refuse it within a second of the page saying so.
//   2. An owner sets the contacts and the webhook on Notificaciones, reads the signing secret shown
//      once and presses "Enviar aviso de prueba": the receiver gets the event, signed with it.
//   3. A billing user reports a deposit with a PNG slip on Recargas; an administrator, signed in
//      through /admin/login, approves it in "Recargas pendientes"; the balance (the portal's
//      Movimientos and the database), the ledger (verifyLedger, as `ledger:verify` runs it, clean),
//      the movement's note (bank and reference) and the billing contact's e-mail all show it; a
//      second report of the same bank and reference is refused with the page's message.
// PostgreSQL only, as the whole multi-instance suite (two instances need one shared database).
// The same walks on PGlite, one instance each, are e2e/portal-credentials.spec.ts,
// e2e/portal-notifications.spec.ts and e2e/portal-top-ups.spec.ts (the e2e run covers both databases).
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { verifyLedger } from '@/lib/core/billing/verify';
import { formatQuetzales } from '@/lib/platform/money';
import { TOP_UP_MESSAGES } from '@/lib/flows/top-ups/messages';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { chromiumExecutable } from '../../e2e/support/chromium';
import { startApp, type RunningApp } from '../support/app-server';
import { depositDaysAgo } from '../support/deposit-dates';
import { addPortalMember, newConsoleUser, PORTAL_PASSWORD, type ConsoleAccount } from '../support/people';
import { slipPng } from '../support/slip-png';
import { mimePart, startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { answersAfter, newIntegration, omisosStatus, PERIODIC_RELOAD_MS, renapStatus, requiredEnv, servedBy, twoInstanceEnv, type TestIntegration } from './support';

/** The longest periodic reload allowed: only a pushed change can reach an instance within a second. */
const REFRESH_MS = PERIODIC_RELOAD_MS;
/** The promise for a revocation: refused by every instance within a second. */
const REVOCATION_BOUND_MS = 1_000;
/** A sign-in hashes a password (scrypt, 128 MiB): on a loaded two-core machine a step may take seconds. */
const STEP_MS = 30_000;
const STEP_TIMEOUT_MS = 240_000;

const stamp = Date.now().toString(36);
const people = {
  developer: `dev-hecho-${stamp}@example.com`,
  owner: `duena-hecho-${stamp}@example.com`,
  billing: `pagos-hecho-${stamp}@example.com`,
  technicalContact: `tecnica-${stamp}@hecho.gt`,
  billingContact: `cobros-${stamp}@hecho.gt`,
  admin: `admin-hecho-${stamp}@example.com`,
};
const REFERENCE = `77${stamp.toUpperCase()}`;
const AMOUNT_CENTAVOS = 150_000;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let smtp: SmtpReceiver;
let receiver: WebhookReceiver;
let browser: Browser;
let instances: RunningApp[] = [];
let integration: TestIntegration;
let nombre: string;
let admin: ConsoleAccount;
// The secret the portal shows once: the receiver checks signatures with it once the owner read it.
let shownSecret = 'todavía-ninguno';
let addresses = 0;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  smtp = await startSmtpReceiver();
  receiver = await startWebhookReceiver(() => shownSecret);
  const env = twoInstanceEnv(testDatabase, simulator, {
    // The integrators' e-mails go to the SMTP receiver; their webhook to a receiver on 127.0.0.1
    // (development only; production refuses this setting).
    ALERT_SMTP_HOST: '127.0.0.1',
    ALERT_SMTP_PORT: String(smtp.port),
    ALERT_EMAIL_FROM: 'avisos@pasarela.example',
    ALERT_RETRY_BASE_MS: '50',
    INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true',
  });
  // A catalog tariff of Q 0.01: the lookups this test polls with are billed, and the ledger counts them.
  integration = await newIntegration(1, 10_000);
  nombre = integration.headers['x-integracion-login']!;
  const member = { id: integration.id, nombre, token: integration.headers['x-integracion-token']! };
  await addPortalMember(member, people.developer, 'desarrollador');
  await addPortalMember(member, people.owner, 'propietario');
  await addPortalMember(member, people.billing, 'facturacion');
  admin = await newConsoleUser(people.admin, 'admin');
  instances = await Promise.all([startApp({ env }), startApp({ env })]);
  await servedBy(instances, integration);
  browser = await chromium.launch({ executablePath: chromiumExecutable(), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(instances.map((app) => app.stop()));
  await receiver?.close();
  await smtp?.close();
  await simulator?.close();
  await testDatabase?.cleanup();
});

const withToken = (token: string) => ({ ...integration.headers, 'x-integracion-token': token });
const instanceA = () => instances[0]!.baseUrl;

/** A browser window of its own, coming from an address of its own (behind the app's one trusted proxy). */
async function newWindow(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, extraHTTPHeaders: { 'x-forwarded-for': `10.34.0.${++addresses}` } });
  context.setDefaultTimeout(STEP_MS);
  return { context, page: await context.newPage() };
}

/** A portal member signs in through the portal's form on instance A and lands on Inicio, headed by the integration's name. */
async function portalSignIn(page: Page, email: string): Promise<void> {
  await page.goto(`${instanceA()}/portal/ingresar`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(PORTAL_PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.getByRole('heading', { name: nombre, level: 1 }).waitFor();
}

/** Opens a portal section from the navigation and waits for its heading. */
async function openSection(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Secciones del portal' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

/** The label of the option of `select` that offers the token `secret` (its text ends with the token's prefix). */
async function optionFor(page: Page, testId: string, secret: string): Promise<string> {
  const labels = await page.getByTestId(testId).locator('option').allTextContents();
  const label = labels.find((text) => {
    // "Principal · tlk_1a2b3c… · creado el …": the prefix, without its ellipsis.
    const prefix = (text.split(' · ').find((part) => part.startsWith('tlk_')) ?? '').replace(/…$/, '');
    return prefix.length > 0 && secret.startsWith(prefix);
  });
  expect(label, `${testId} offers the token: ${JSON.stringify(labels)}`).toBeDefined();
  return label!;
}

async function textOf(page: Page, testId: string): Promise<string> {
  const element = page.getByTestId(testId);
  await element.waitFor();
  return ((await element.textContent()) ?? '').trim();
}

describe("issue 34's done-when in chromium, on two instances", () => {
  it('a developer rotates the token with 24 h of overlap (both answer 200 on both instances), then revokes the old one, refused by both within a second', { timeout: STEP_TIMEOUT_MS }, async () => {
    const oldToken = integration.headers['x-integracion-token']!;
    const { context, page } = await newWindow();
    await portalSignIn(page, people.developer);
    await openSection(page, 'Credenciales');

    await page.getByTestId('rotate-token-choice').selectOption({ label: await optionFor(page, 'rotate-token-choice', oldToken) });
    await page.getByTestId('rotate-overlap').selectOption('24h');
    await page.getByRole('button', { name: 'Rotar token' }).click();
    const rotation = page.getByRole('dialog');
    await rotation.getByText('sigue funcionando durante 24 horas').first().waitFor();
    await rotation.getByRole('button', { name: 'Rotar token' }).click();
    const newToken = await textOf(page, 'rotated-token');
    expect(newToken).toMatch(/^tlk_/);
    const rotatedAt = Date.now();

    // The new token reaches both instances by the announcement (not the 10 s reload).
    for (const app of instances) await answersAfter(() => omisosStatus(app, withToken(newToken)), 200, rotatedAt, [401], REFRESH_MS / 2);
    for (const app of instances) {
      for (const token of [oldToken, newToken]) {
        expect(await omisosStatus(app, withToken(token)), `${app.baseUrl} ${token.slice(0, 10)}`).toBe(200);
        expect(await renapStatus(app, withToken(token)), `${app.baseUrl} ${token.slice(0, 10)}`).toBe(200);
      }
    }

    await page.reload();
    await page.getByTestId('revoke-token-choice').selectOption({ label: await optionFor(page, 'revoke-token-choice', oldToken) });
    await page.getByRole('button', { name: 'Revocar token' }).click();
    const revocation = page.getByRole('dialog');
    await revocation.getByText(`(${oldToken.slice(0, 10)}…, anterior, creado el `).first().waitFor();
    await revocation.getByRole('button', { name: 'Revocar token' }).click();
    await page.getByText(/revocado: ya no funciona en ninguna instancia\./).first().waitFor();
    const revokedAt = Date.now();
    // Both instances polled at once from the moment the page said so: each within the second.
    const refusedAfter = await Promise.all(instances.map((app) => answersAfter(() => omisosStatus(app, withToken(oldToken)), 401, revokedAt, [200], REFRESH_MS / 2)));
    for (const elapsed of refusedAfter) expect(elapsed).toBeLessThan(REVOCATION_BOUND_MS);
    for (const app of instances) {
      expect(await renapStatus(app, withToken(oldToken))).toBe(403);
      expect(await omisosStatus(app, withToken(newToken))).toBe(200);
      expect(await renapStatus(app, withToken(newToken))).toBe(200);
    }
    await context.close();
  });

  it('an owner sets the contacts and the webhook, and the test event arrives at the receiver signed with the secret shown once', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    await portalSignIn(page, people.owner);
    await openSection(page, 'Notificaciones');

    await page.getByTestId('contact-technical').fill(people.technicalContact);
    await page.getByTestId('contact-billing').fill(people.billingContact);
    await page.getByRole('button', { name: 'Guardar contactos' }).click();
    await page.getByText('Contactos guardados.').first().waitFor();

    await page.getByTestId('webhook-url').fill(receiver.url);
    await page.getByRole('button', { name: 'Guardar webhook' }).click();
    shownSecret = await textOf(page, 'webhook-secret');
    expect(shownSecret).toMatch(/^whsec_/);
    // The secret comes with the action's answer and the page's data with its re-render, which React
    // may commit a moment later: wait for the address rather than read it at once.
    await page.getByTestId('webhook-current').filter({ hasText: receiver.url }).waitFor();
    expect(await textOf(page, 'webhook-current')).toBe(receiver.url);
    await page.reload();
    expect(await page.getByTestId('webhook-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(shownSecret);

    await page.getByRole('button', { name: 'Enviar aviso de prueba' }).click();
    await page.getByTestId('test-notice-outcome').filter({ hasText: `Entregado a ${receiver.url}: respondió 204.` }).waitFor();
    const events = receiver.about(`prueba:${integration.id}`);
    expect(events.map((event) => [event.body.tipo, event.signed, event.answered])).toEqual([['prueba', true, 204]]);
    expect(events[0]!.headers['x-alerta-firma']).toBeTruthy();
    await context.close();
  });

  it('a billing user reports a deposit with its slip, an administrator approves it, and the balance, the ledger, the note and the e-mail show it; the same deposit again is refused', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page: billing } = await newWindow();
    await portalSignIn(billing, people.billing);
    await openSection(billing, 'Recargas');
    const report = async (typedReference: string) => {
      await billing.getByLabel('Banco').selectOption({ label: 'Banco Industrial' });
      await billing.getByLabel('Número de referencia').fill(typedReference);
      await billing.getByLabel('Fecha del depósito').fill(depositDaysAgo(7));
      await billing.getByLabel('Monto (Q)').fill('1,500.00');
      await billing.getByLabel('Boleta (opcional)').setInputFiles({ name: 'boleta.png', mimeType: 'image/png', buffer: slipPng() });
      await billing.getByRole('button', { name: 'Reportar depósito' }).click();
    };
    await report(REFERENCE);
    await billing.getByText('La administración lo revisará').first().waitFor();
    const row = billing.getByTestId('portal-top-up-row').filter({ hasText: REFERENCE });
    await row.filter({ hasText: 'Pendiente de revisión' }).waitFor();
    // Nothing moves until an administrator approves: no lookups run from here on.
    const before = await balanceAndLedgerSum(integration.id);
    expect(before.balanceCentavos).toBe(before.ledgerSumCentavos);

    const { context: adminContext, page: staff } = await newWindow();
    await staff.goto(`${instanceA()}/admin/login`);
    await staff.getByLabel('Correo electrónico').fill(admin.email);
    await staff.getByLabel('Contraseña').fill(admin.password);
    await staff.getByRole('button', { name: 'Iniciar sesión' }).click();
    await staff.getByRole('heading', { name: 'Panel', level: 1 }).waitFor();
    await staff.goto(`${instanceA()}/admin/recargas`);
    const card = staff.getByTestId('pending-top-up').filter({ hasText: nombre });
    await card.filter({ hasText: 'Banco Industrial' }).filter({ hasText: REFERENCE }).waitFor();
    const slip = card.getByRole('img', { name: /Boleta del depósito/ });
    await slip.waitFor();
    await expect.poll(() => slip.evaluate((image: HTMLImageElement) => image.naturalWidth), { timeout: STEP_MS }).toBe(8);
    await card.getByRole('button', { name: 'Aprobar y acreditar' }).click();
    await staff.getByRole('dialog', { name: `¿Acreditar ${formatQuetzales(AMOUNT_CENTAVOS)} a «${nombre}»?` }).getByRole('button', { name: 'Aprobar y acreditar' }).click();
    await staff.getByTestId('top-up-notice').filter({ hasText: `Recarga de ${formatQuetzales(AMOUNT_CENTAVOS)} acreditada` }).waitFor();
    await adminContext.close();

    // The balance and the ledger: credited once, reconciled.
    const after = await balanceAndLedgerSum(integration.id);
    expect(after).toEqual({ balanceCentavos: before.balanceCentavos + AMOUNT_CENTAVOS, ledgerSumCentavos: before.balanceCentavos + AMOUNT_CENTAVOS });
    const verification = await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 });
    expect(verification.ok, JSON.stringify(verification.differences)).toBe(true);

    // The integration's Movimientos: the balance and the movement's note with the bank and reference.
    await openSection(billing, 'Movimientos');
    expect(await textOf(billing, 'portal-current-balance')).toBe(formatQuetzales(after.balanceCentavos));
    const movement = billing.getByTestId('portal-movements').locator('tbody tr').first();
    await movement.waitFor();
    const movementText = (await movement.textContent()) ?? '';
    expect(movementText).toContain(formatQuetzales(AMOUNT_CENTAVOS));
    expect(movementText).toContain(`Depósito Banco Industrial, referencia ${REFERENCE}`);
    await openSection(billing, 'Recargas');
    await row.filter({ hasText: 'Acreditada' }).waitFor();

    // The billing contact's e-mail, through the real SMTP server.
    await expect.poll(() => smtp.to(people.billingContact).filter((mail) => mail.subject.includes('Su recarga fue acreditada')).length, { timeout: STEP_MS }).toBe(1);
    const mail = smtp.to(people.billingContact).find((candidate) => candidate.subject.includes('Su recarga fue acreditada'))!;
    const text = mimePart(mail.raw, 'text/plain')!.body.toString('utf8');
    expect(text).toContain(`Acreditamos ${formatQuetzales(AMOUNT_CENTAVOS)} a «${nombre}» por el depósito en Banco Industrial con referencia ${REFERENCE}.`);
    expect(text).toContain(`Su saldo ahora es ${formatQuetzales(after.balanceCentavos)}.`);

    // The same bank and reference again: refused with the page's message, nothing added.
    await report(REFERENCE);
    await billing.getByRole('alert').filter({ hasText: TOP_UP_MESSAGES.duplicate }).first().waitFor();
    expect(await billing.getByTestId('portal-top-up-row').count()).toBe(1);
    expect(await balanceAndLedgerSum(integration.id)).toEqual(after);
    await context.close();
  });
});
