// Issue 67, each integrator's portal through its company's own identity provider, in chromium on
// two instances sharing PostgreSQL and Redis, against the simulator's OpenID Provider: the owner
// connects the company's provider on «Equipo» (instance A), its people with an e-mail of the
// company's domain enter through it, created just in time with the role their groups give, others
// are refused in words and in the audit, a password no longer opens a member's account (but the
// break-glass owner's), and the provider's logout token sent to instance B ends a session held on A.
// PostgreSQL only, as the whole multi-instance suite (two instances need one shared database).
import { and, desc, eq, inArray } from 'drizzle-orm';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, portalUsers } from '@/db/schema';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import type { OidcSimUser } from '@/simulator/oidc';
import { chromiumExecutable } from '../../e2e/support/chromium';
import { freePort, startApp, type RunningApp } from '../support/app-server';
import { addPortalMember, PORTAL_PASSWORD } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { newIntegration, requiredEnv, twoInstanceEnv, type TestIntegration } from './support';

const STEP_MS = 30_000;
const STEP_TIMEOUT_MS = 180_000;
const RECHECK_SECONDS = 5;
/** The re-check's bound: its interval, the job's own period, and the slack of a machine running the PostgreSQL suite beside (this file is untimed). */
const RECHECK_BOUND_MS = 6 * RECHECK_SECONDS * 1000 + 20_000;
const DOMAIN = 'empresa-cliente.example';
const CLIENT = { clientId: 'portal-empresa-cliente', clientSecret: 'secreto-del-portal-de-la-empresa' };
const OWNER = `duena@${DOMAIN}`;
const LOCAL_DEVELOPER = `dev.local@${DOMAIN}`;
const GABRIELA: OidcSimUser = { sub: 'emp-gabriela', email: `gabriela@${DOMAIN}`, name: 'Gabriela Soto', groups: ['pasarela-desarrollo'] };
const HUGO: OidcSimUser = { sub: 'emp-hugo', email: `hugo@${DOMAIN}`, name: 'Hugo Paz', groups: ['ventas'] };
const JULIA: OidcSimUser = { sub: 'emp-julia', email: `julia@${DOMAIN}`, name: 'Julia Mora', groups: ['pasarela-desarrollo'] };
const DEV_LOCAL_AT_PROVIDER: OidcSimUser = { sub: 'emp-dev-local', email: `dev.local@${DOMAIN}`, name: 'Dev Local', groups: ['pasarela-desarrollo'] };
const OTHER_DOMAIN: OidcSimUser = { sub: 'emp-iris', email: 'iris@otro-dominio.example', name: 'Iris Gil', groups: ['pasarela-desarrollo'] };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let browser: Browser;
let instances: RunningApp[] = [];
let integration: TestIntegration;
let addresses = 0;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  for (const user of [GABRIELA, HUGO, JULIA, DEV_LOCAL_AT_PROVIDER, OTHER_DOMAIN]) simulator.oidc.upsertUser(user);
  integration = await newIntegration(0, 0);
  const member = { id: integration.id, nombre: integration.headers['x-integracion-login']!, token: integration.headers['x-integracion-token']! };
  await addPortalMember(member, OWNER, 'propietario');
  await addPortalMember(member, LOCAL_DEVELOPER, 'desarrollador');
  // The simulator's provider listens on 127.0.0.1: allowed as an integrator's target only here (development).
  // Sessions re-checked at the provider every 5 s (600 by default), so the test sees it happen.
  const env = twoInstanceEnv(testDatabase, simulator, { INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', SESSION_RECHECK_SECONDS: String(RECHECK_SECONDS) });
  const ports = [await freePort(), await freePort()];
  instances = await Promise.all(ports.map((port) => startApp({ port, env: { ...env, NEXTAUTH_URL: `http://127.0.0.1:${port}` } })));
  simulator.oidc.upsertClient({
    ...CLIENT,
    redirectUris: instances.map((app) => `${app.baseUrl}/portal/sso/retorno`),
    backchannelLogoutUri: `${instances[1]!.baseUrl}/api/portal/sso/cierre-de-sesion`,
  });
  browser = await chromium.launch({ executablePath: chromiumExecutable(), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(instances.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

const instanceA = () => instances[0]!.baseUrl;

async function newWindow(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, extraHTTPHeaders: { 'x-forwarded-for': `10.68.0.${++addresses}` } });
  context.setDefaultTimeout(STEP_MS);
  return { context, page: await context.newPage() };
}

async function passwordSignIn(page: Page, email: string): Promise<void> {
  await page.goto(`${instanceA()}/portal/ingresar`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(PORTAL_PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

/** From the sign-in page: "Entrar con la cuenta de su empresa", the e-mail, then the account at the provider. */
async function throughCompany(page: Page, user: OidcSimUser): Promise<void> {
  await page.goto(`${instanceA()}/portal/ingresar`);
  await page.getByRole('link', { name: 'Entrar con la cuenta de su empresa' }).click();
  await page.getByLabel('Correo electrónico de la empresa').fill(user.email);
  await page.getByRole('button', { name: 'Continuar con la cuenta de mi empresa' }).click();
  await page.getByRole('heading', { name: 'Proveedor de identidad simulado' }).waitFor();
  await page.getByRole('button', { name: `Entrar como ${user.name} (${user.email})` }).click();
}

async function refusalShown(page: Page): Promise<string> {
  const alert = page.getByRole('alert').filter({ hasText: /\S/ });
  await alert.waitFor();
  return (await alert.textContent()) ?? '';
}

async function memberByEmail(email: string) {
  const [row] = await (await db()).select().from(portalUsers).where(eq(portalUsers.email, email));
  return row;
}

async function auditOf(actions: string[]) {
  return (await db()).select().from(auditLog).where(inArray(auditLog.action, actions)).orderBy(desc(auditLog.id));
}

describe('the portal through the integrator company’s identity provider, on two instances', () => {
  it('the owner connects the company’s provider on Equipo, checked against its discovery document', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    await passwordSignIn(page, OWNER);
    await page.getByRole('heading', { name: integration.headers['x-integracion-login']!, level: 1 }).waitFor();
    await page.goto(`${instanceA()}/portal/equipo`);
    const section = page.getByTestId('company-sign-in');
    expect(await section.getByTestId('idp-callback-uri').textContent()).toBe(`${instanceA()}/portal/sso/retorno`);
    await section.getByLabel('Emisor (issuer)').fill(simulator.oidc.issuer());
    await section.getByLabel('Id de cliente').fill(CLIENT.clientId);
    await section.getByLabel('Secreto del cliente').fill(CLIENT.clientSecret);
    await section.getByLabel('Dominio de correo').fill(DOMAIN);
    await section.getByLabel('Valores para Propietario').fill('pasarela-duenos');
    await section.getByLabel('Valores para Desarrollador').fill('pasarela-desarrollo');
    await section.getByLabel('Cuentas de emergencia').fill(OWNER);
    await section.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => section.getByTestId('company-sign-in-state').textContent(), { timeout: STEP_MS }).toContain(DOMAIN);
    await context.close();
  });

  it('a person of the company enters through it, created just in time with the role of their group, with no step of ours', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    await throughCompany(page, GABRIELA);
    await page.getByRole('heading', { name: integration.headers['x-integracion-login']!, level: 1 }).waitFor();
    expect(await memberByEmail(GABRIELA.email)).toMatchObject({ integrationId: integration.id, role: 'desarrollador', origin: 'identity_provider', identityProviderSubject: GABRIELA.sub, name: GABRIELA.name });
    const created = await auditOf(['portal_user.identity_provider_created', 'portal_user.sign_in_identity_provider']);
    expect(created.map((entry) => entry.action).sort()).toEqual(['portal_user.identity_provider_created', 'portal_user.sign_in_identity_provider']);
    await context.close();
  });

  it('refuses a person in no portal group and an account outside the company’s domain, in words and in the audit', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    await throughCompany(page, HUGO);
    expect(await refusalShown(page)).toContain('su cuenta no pertenece a ningún grupo');
    expect(await memberByEmail(HUGO.email)).toBeUndefined();
    // Iris's e-mail names no company here; through the company's provider with another domain, refused.
    await page.goto(`${instanceA()}/portal/ingresar/empresa`);
    await page.getByLabel('Correo electrónico de la empresa').fill(`alguien@${DOMAIN}`);
    await page.getByRole('button', { name: 'Continuar con la cuenta de mi empresa' }).click();
    await page.getByRole('button', { name: `Entrar como ${OTHER_DOMAIN.name} (${OTHER_DOMAIN.email})` }).click();
    expect(await refusalShown(page)).toContain('la cuenta no es del dominio de la empresa');
    const reasons = (await auditOf(['portal_user.identity_provider_refused'])).map((entry) => (entry.after as { identityProviderRefusal: string }).identityProviderRefusal);
    expect(reasons).toEqual(expect.arrayContaining(['sso_no_role', 'sso_wrong_domain']));
    await context.close();
  });

  it('a password opens only the break-glass owner’s account once the company’s provider is on; the owner passes a password member to it', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    await passwordSignIn(page, LOCAL_DEVELOPER);
    expect(await refusalShown(page)).toContain('Esta cuenta entra con el proveedor de identidad de la empresa');
    // The provider's person with the same e-mail is not that member until an owner says so.
    const { context: devs, page: dev } = await newWindow();
    await throughCompany(dev, DEV_LOCAL_AT_PROVIDER);
    expect(await refusalShown(dev)).toContain('ya existe una cuenta con contraseña con ese correo');

    await passwordSignIn(page, OWNER);
    await page.getByRole('heading', { name: integration.headers['x-integracion-login']!, level: 1 }).waitFor();
    await page.goto(`${instanceA()}/portal/equipo`);
    const row = page.locator(`tr[data-member="${LOCAL_DEVELOPER}"]`);
    await row.getByRole('button', { name: 'Pasar a la cuenta de la empresa' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pasar a la cuenta de la empresa' }).click();
    await expect.poll(() => row.textContent(), { timeout: STEP_MS }).toContain('Entra con la cuenta de la empresa');
    const before = await memberByEmail(LOCAL_DEVELOPER);
    await throughCompany(dev, DEV_LOCAL_AT_PROVIDER);
    await dev.getByRole('heading', { name: integration.headers['x-integracion-login']!, level: 1 }).waitFor();
    expect(await memberByEmail(LOCAL_DEVELOPER)).toMatchObject({ id: before!.id, origin: 'identity_provider', identityProviderSubject: DEV_LOCAL_AT_PROVIDER.sub });
    await devs.close();
    await context.close();
  });

  it('a person the company disabled at its provider, with no logout token, loses the portal within the re-check interval', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    await throughCompany(page, JULIA);
    await page.getByRole('heading', { name: integration.headers['x-integracion-login']!, level: 1 }).waitFor();
    const disabledAt = Date.now();
    simulator.oidc.upsertUser({ ...JULIA, disabled: true });
    await expect
      .poll(
        async () => {
          await page.goto(`${instances[1]!.baseUrl}/portal`);
          return new URL(page.url()).pathname;
        },
        { timeout: RECHECK_BOUND_MS, interval: 1_000 },
      )
      .toBe('/portal/ingresar');
    expect(Date.now() - disabledAt).toBeLessThan(RECHECK_BOUND_MS);
    const julia = await memberByEmail(JULIA.email);
    expect((await auditOf(['portal_user.identity_provider_session_refused'])).map((entry) => entry.targetId)).toContain(String(julia!.id));
    await context.close();
  });

  it('the provider’s logout token, sent to instance B, ends the session the browser holds on A; a forged one is refused', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    await throughCompany(page, GABRIELA);
    await page.getByRole('heading', { name: integration.headers['x-integracion-login']!, level: 1 }).waitFor();
    const logouts = await simulator.oidc.backchannelLogout(GABRIELA.sub);
    expect(logouts.filter((logout) => logout.status === 200).length).toBeGreaterThan(0);
    await page.goto(`${instanceA()}/portal`);
    await page.waitForURL(/\/portal\/ingresar/);
    const gabriela = await memberByEmail(GABRIELA.email);
    const ended = await (await db())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'portal_user.identity_provider_logout'), eq(auditLog.targetId, String(gabriela!.id))));
    expect(ended.length).toBeGreaterThan(0);

    const forged = await fetch(`${instances[1]!.baseUrl}/api/portal/sso/cierre-de-sesion`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJlbXAtZ2FicmllbGEifQ.' }),
    });
    expect(forged.status).toBe(400);
    await context.close();
  });
});
