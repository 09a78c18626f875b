// Issue 67, the console's sign-in through the company's identity provider, in chromium on two
// instances sharing PostgreSQL and Redis, against the simulator's OpenID Provider (simulator/oidc.ts)
// set up as an Entra ID tenant would be: people press "Entrar con …" on instance A's sign-in page,
// choose their account at the provider and come back signed in or refused with the reason in words;
// the provider's back-channel logout reaches instance B and ends the sessions the browser holds on A.
// PostgreSQL only, as the whole multi-instance suite (two instances need one shared database).
import { and, desc, eq, inArray } from 'drizzle-orm';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, consoleUsers } from '@/db/schema';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { OIDC_SIM_DEV_CLIENT, OIDC_SIM_DEV_TENANT, OIDC_SIM_DEV_USERS, type OidcSimUser } from '@/simulator/oidc';
import { chromiumExecutable } from '../../e2e/support/chromium';
import { freePort, startApp, type RunningApp } from '../support/app-server';
import { newConsoleUser, type ConsoleAccount } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { requiredEnv, twoInstanceEnv } from './support';

const STEP_MS = 30_000;
const STEP_TIMEOUT_MS = 180_000;
const PROVIDER_NAME = 'Microsoft Entra ID';
const RECHECK_SECONDS = 5;
/** The re-check's bound: its interval, the job's own period, and the slack of a machine running the PostgreSQL suite beside (this file is untimed). */
const RECHECK_BOUND_MS = 6 * RECHECK_SECONDS * 1000 + 20_000;

const [ANA, BRUNO, CARLA] = OIDC_SIM_DEV_USERS as [OidcSimUser, OidcSimUser, OidcSimUser];
const ELISA: OidcSimUser = { sub: 'usr-elisa-rios', email: 'elisa.rios@operador.example', name: 'Elisa Ríos', groups: ['consola-administradores'], hd: 'operador.example' };
const FELIPE: OidcSimUser = { sub: 'usr-felipe-cruz', email: 'felipe.cruz@operador.example', name: 'Felipe Cruz', groups: ['consola-soporte'], hd: 'operador.example' };
const OUTSIDER: OidcSimUser = { sub: 'usr-otro-inquilino', email: 'dora.paz@otra-empresa.example', name: 'Dora Paz', groups: ['consola-administradores'], tid: '11111111-2222-4333-8444-555555555555' };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let browser: Browser;
let instances: RunningApp[] = [];
let breakGlass: ConsoleAccount;
let localSupport: ConsoleAccount;
let addresses = 0;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  for (const user of [OUTSIDER, ELISA, FELIPE]) simulator.oidc.upsertUser(user);
  breakGlass = await newConsoleUser('emergencia@operador.example', 'admin', { name: 'Cuenta de emergencia' });
  localSupport = await newConsoleUser('soporte.local@operador.example', 'support');
  // Bruno had a local account before the provider: the same e-mail is not enough to take it over.
  await newConsoleUser(BRUNO.email, 'support', { name: 'Bruno (cuenta local)' });
  const env = twoInstanceEnv(testDatabase, simulator, {
    CONSOLE_OIDC_ISSUER: simulator.oidc.issuer(),
    CONSOLE_OIDC_CLIENT_ID: OIDC_SIM_DEV_CLIENT.clientId,
    CONSOLE_OIDC_CLIENT_SECRET: OIDC_SIM_DEV_CLIENT.clientSecret,
    CONSOLE_OIDC_ADMIN_VALUES: 'consola-administradores',
    CONSOLE_OIDC_SUPPORT_VALUES: 'consola-soporte',
    CONSOLE_OIDC_PROVIDER_NAME: PROVIDER_NAME,
    CONSOLE_OIDC_ENTRA_TENANT_ID: OIDC_SIM_DEV_TENANT,
    CONSOLE_LOCAL_SIGN_IN: 'break_glass',
    CONSOLE_BREAK_GLASS_EMAILS: breakGlass.email,
    // Sessions re-checked with the provider every 5 s (600 by default), so the test sees it happen.
    SESSION_RECHECK_SECONDS: String(RECHECK_SECONDS),
  });
  // Each instance knows its own address (NEXTAUTH_URL): the provider returns the browser there.
  const ports = [await freePort(), await freePort()];
  instances = await Promise.all(ports.map((port) => startApp({ port, env: { ...env, NEXTAUTH_URL: `http://127.0.0.1:${port}` } })));
  // The console's client at the provider: it returns to either instance; logout tokens go to B.
  simulator.oidc.upsertClient({
    ...OIDC_SIM_DEV_CLIENT,
    redirectUris: instances.map((app) => `${app.baseUrl}/api/auth/callback/oidc`),
    backchannelLogoutUri: `${instances[1]!.baseUrl}/api/sso/cierre-de-sesion`,
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
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, extraHTTPHeaders: { 'x-forwarded-for': `10.67.0.${++addresses}` } });
  context.setDefaultTimeout(STEP_MS);
  return { context, page: await context.newPage() };
}

/** "Entrar con …" on A's sign-in page, then the account chosen at the provider. */
async function throughProvider(page: Page, user: OidcSimUser): Promise<void> {
  await page.goto(`${instanceA()}/admin/login`);
  await page.getByRole('button', { name: `Entrar con ${PROVIDER_NAME}` }).click();
  await page.getByRole('heading', { name: 'Proveedor de identidad simulado' }).waitFor();
  await page.getByRole('button', { name: `Entrar como ${user.name} (${user.email})` }).click();
}

async function refusalShown(page: Page): Promise<string> {
  await page.waitForURL(/\/admin\/login/);
  // The page's notice, not Next's empty route announcer.
  const alert = page.getByRole('alert').filter({ hasText: /\S/ });
  await alert.waitFor();
  return (await alert.textContent()) ?? '';
}

async function auditOf(actions: string[]): Promise<Array<{ action: string; targetId: string; after: unknown }>> {
  return (await db())
    .select({ action: auditLog.action, targetId: auditLog.targetId, after: auditLog.after })
    .from(auditLog)
    .where(inArray(auditLog.action, actions))
    .orderBy(desc(auditLog.id));
}

async function userByEmail(email: string) {
  const [row] = await (await db()).select().from(consoleUsers).where(eq(consoleUsers.email, email));
  return row;
}

describe('the console through the identity provider, on two instances', () => {
  it('offers "Entrar con …" first; a member of the administrators group enters as administrator, created just in time, with no step of ours', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    await page.goto(`${instanceA()}/admin/login`);
    const buttons = await page.getByRole('button').allTextContents();
    expect(buttons[0]).toBe(`Entrar con ${PROVIDER_NAME}`);
    await page.getByRole('heading', { name: 'Cuentas de emergencia' }).waitFor();

    await throughProvider(page, ANA);
    await page.getByRole('heading', { name: 'Panel', level: 1 }).waitFor();
    const ana = await userByEmail(ANA.email);
    expect(ana).toMatchObject({ origin: 'identity_provider', identityProviderSubject: ANA.sub, role: 'admin', name: ANA.name });
    expect(ana!.lastSignInAt).toBeInstanceOf(Date);

    await page.goto(`${instanceA()}/admin/usuarios`);
    const row = page.getByTestId('users').getByRole('row').filter({ hasText: ANA.email });
    await expect.poll(() => row.textContent()).toContain('Proveedor de identidad');
    expect(await row.textContent()).toContain('El rol lo decide su directorio');
    expect(await row.textContent()).not.toContain('Nunca');
    const created = await auditOf(['user.identity_provider_created', 'user.sign_in_identity_provider']);
    expect(created.filter((entry) => entry.targetId === String(ana!.id)).map((entry) => entry.action).sort()).toEqual(['user.identity_provider_created', 'user.sign_in_identity_provider']);

    // The audit page says it in words.
    await page.goto(`${instanceA()}/admin/auditoria`);
    const entries = page.getByRole('table');
    await entries.getByText('Se creó el usuario en su primer inicio de sesión con el proveedor de identidad').first().waitFor();
    await entries.getByText('Inició sesión con el proveedor de identidad').first().waitFor();
    await context.close();
  });

  it('refuses, in words and in the audit, an account in no console group, another tenant’s account, and a local account nobody linked', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    await throughProvider(page, CARLA);
    expect(await refusalShown(page)).toContain('No puede entrar: su cuenta no pertenece a ningún grupo con acceso.');
    expect(await userByEmail(CARLA.email)).toBeUndefined();

    await throughProvider(page, OUTSIDER);
    expect(await refusalShown(page)).toContain('la cuenta es de otra organización (otro inquilino de Entra ID)');

    await throughProvider(page, BRUNO);
    expect(await refusalShown(page)).toContain('ya existe una cuenta con contraseña con ese correo, y nadie la pasó todavía al proveedor de identidad');
    expect(await userByEmail(BRUNO.email)).toMatchObject({ origin: 'local', identityProviderSubject: null });

    const refusals = (await auditOf(['user.identity_provider_refused'])).map((entry) => (entry.after as { identityProviderRefusal: string }).identityProviderRefusal);
    expect(refusals).toEqual(expect.arrayContaining(['sso_no_role', 'sso_wrong_tenant', 'sso_not_linked']));
    await context.close();
  });

  it('refuses an expired ID token and says when the provider is down; the break-glass account still enters with its password, and only it', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context, page } = await newWindow();
    simulator.oidc.setFaults(['expired_id_token']);
    await throughProvider(page, ANA);
    expect(await refusalShown(page)).toContain('No se pudo confirmar su identidad');
    await expect.poll(async () => (await auditOf(['user.identity_provider_refused'])).map((entry) => (entry.after as { identityProviderRefusal: string }).identityProviderRefusal)).toContain('sso_expired_token');

    simulator.oidc.setFaults(['discovery_down']);
    await page.goto(`${instanceA()}/admin/login`);
    await page.getByRole('button', { name: `Entrar con ${PROVIDER_NAME}` }).click();
    expect(await refusalShown(page)).toContain('El proveedor de identidad no responde en este momento');

    // A local account that is not break-glass: the right password, and still not a way in.
    await page.goto(`${instanceA()}/admin/login`);
    await page.getByLabel('Correo electrónico').fill(localSupport.email);
    await page.getByLabel('Contraseña').fill(localSupport.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByText('Esta cuenta entra con el proveedor de identidad de la empresa').waitFor();

    await page.getByLabel('Correo electrónico').fill(breakGlass.email);
    await page.getByLabel('Contraseña').fill(breakGlass.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByRole('heading', { name: 'Panel', level: 1 }).waitFor();
    simulator.oidc.setFaults([]);

    // The administrator passes Bruno's local account to the provider; his next sign-in takes it over.
    await page.goto(`${instanceA()}/admin/usuarios`);
    const row = page.getByTestId('users').getByRole('row').filter({ hasText: BRUNO.email });
    await row.getByRole('button', { name: `Pasar a ${PROVIDER_NAME}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pasar al proveedor' }).click();
    // The row now says so (its action is gone with the password).
    await expect.poll(() => row.textContent(), { timeout: STEP_MS }).toContain('Proveedor de identidad');
    expect(await userByEmail(BRUNO.email)).toMatchObject({ origin: 'identity_provider', identityProviderSubject: null });
    const { context: brunos, page: bruno } = await newWindow();
    await throughProvider(bruno, BRUNO);
    await bruno.getByRole('heading', { name: 'Panel', level: 1 }).waitFor();
    expect(await userByEmail(BRUNO.email)).toMatchObject({ origin: 'identity_provider', identityProviderSubject: BRUNO.sub, role: 'support' });
    await brunos.close();
    await context.close();
  });

  it('a role the directory changed ends the user’s other sessions; a logout token sent to instance B ends those held on A', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context: first, page: office } = await newWindow();
    await throughProvider(office, ANA);
    await office.getByRole('heading', { name: 'Panel', level: 1 }).waitFor();

    // Moved to support in the directory: the next sign-in is support, and the first browser is out.
    simulator.oidc.upsertUser({ ...ANA, groups: ['consola-soporte'] });
    const { context: second, page: laptop } = await newWindow();
    await throughProvider(laptop, ANA);
    await laptop.getByRole('heading', { name: 'Panel', level: 1 }).waitFor();
    expect(await userByEmail(ANA.email)).toMatchObject({ role: 'support' });
    await office.goto(`${instanceA()}/admin`);
    await office.waitForURL(/\/admin\/login/);
    const changed = await auditOf(['user.identity_provider_role_changed']);
    expect(changed[0]!.after).toEqual({ role: 'support' });

    // The provider ends her session there: the logout token reaches B, and A refuses her cookie.
    const logouts = await simulator.oidc.backchannelLogout(ANA.sub);
    expect(logouts.map((logout) => logout.status)).toContain(200);
    await laptop.goto(`${instanceA()}/admin`);
    await laptop.waitForURL(/\/admin\/login/);
    const ana = await userByEmail(ANA.email);
    const loggedOut = await (await db())
      .select({ before: auditLog.before })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.identity_provider_logout'), eq(auditLog.targetId, String(ana!.id))));
    expect(loggedOut.length).toBeGreaterThan(0);

    // Out of every console group: refused, and no session of hers is left.
    simulator.oidc.upsertUser({ ...ANA, groups: ['contabilidad'] });
    await throughProvider(laptop, ANA);
    expect(await refusalShown(laptop)).toContain('no pertenece a ningún grupo');
    await first.close();
    await second.close();
  });

  it('re-checks sessions with the provider: an account disabled there, with no logout token, and a role moved, end within the interval', { timeout: STEP_TIMEOUT_MS }, async () => {
    const { context: felipes, page: felipe } = await newWindow();
    await throughProvider(felipe, FELIPE);
    await felipe.getByRole('heading', { name: 'Panel', level: 1 }).waitFor();
    const { context: elisas, page: elisa } = await newWindow();
    await throughProvider(elisa, ELISA);
    await elisa.getByRole('heading', { name: 'Panel', level: 1 }).waitFor();

    const changedAt = Date.now();
    simulator.oidc.upsertUser({ ...FELIPE, disabled: true });
    simulator.oidc.upsertUser({ ...ELISA, groups: ['consola-soporte'] });
    const signedOut = async (page: Page) => {
      await expect
        .poll(
          async () => {
            await page.goto(`${instances[1]!.baseUrl}/admin`);
            return new URL(page.url()).pathname;
          },
          { timeout: RECHECK_BOUND_MS, interval: 1_000 },
        )
        .toBe('/admin/login');
      return Date.now() - changedAt;
    };
    expect(await signedOut(felipe)).toBeLessThan(RECHECK_BOUND_MS);
    expect(await signedOut(elisa)).toBeLessThan(RECHECK_BOUND_MS);
    const felipeRow = await userByEmail(FELIPE.email);
    expect((await auditOf(['user.identity_provider_session_refused'])).map((entry) => entry.targetId)).toContain(String(felipeRow!.id));
    expect(await userByEmail(ELISA.email)).toMatchObject({ role: 'support' });
    await felipes.close();
    await elisas.close();
  });

  it('refuses a forged logout token with 400 and ends nothing', async () => {
    const response = await fetch(`${instances[1]!.baseUrl}/api/sso/cierre-de-sesion`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c3ItYW5hLWxvcGV6In0.' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });
});
