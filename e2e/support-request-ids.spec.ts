// Issue 32's "done when": a support user, given only the x-request-id of a replayed 200, of a 402
// and of a 429, says in one sentence each what happened and whether it was charged. None of these
// three requests left a query record of its own (a replay repeats one, a refusal never reached a
// source): each id is typed into the records search as the integrator gave it, on a computer and
// on a phone.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { samplePopulation } from '../simulator/population';
import { createUserThroughForm, demoToken, openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings, signInFirstTime, signInThroughForm } from './support/console';

/** The registry lookups an integration may make in a minute (lib/platform/settings/env.ts, RATE_LIMIT_RENAP_PER_MINUTE's default). */
const RENAP_PER_MINUTE = 30;
const population = () => samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) });
/** "25/11/2026, 13:46:29", as the console writes Guatemala's times. */
const CONSOLE_TIME = String.raw`\d{2}/\d{2}/\d{4}, \d{2}:\d{2}:\d{2}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

interface Ids {
  integration: string;
  refusedForBalance: string;
  refusedForLimit: string;
  replay: string;
  replayed: string;
}

let ids: Ids;
let supportEmail = '';
let supportPassword = '';
/** The support user's first sign-in changes its initial password (a new worker's beforeAll makes a new user). */
let supportPasswordChanged = false;

function requestIdOf(answer: { headers(): Record<string, string> }): string {
  const requestId = answer.headers()['x-request-id'];
  expect(requestId).toMatch(/^req_[0-9a-f]{20}$/);
  return requestId!;
}

async function lookup(request: APIRequestContext, path: string, as: { login: string; token: string; ip: string }, data: object, extra: Record<string, string> = {}) {
  return request.post(`${settings().baseUrl}${path}`, {
    headers: { 'x-integracion-login': as.login, 'x-integracion-token': as.token, 'x-forwarded-for': as.ip, ...extra },
    data,
  });
}

test.beforeAll(async ({ browser, request }) => {
  const { baseUrl } = settings();
  const context = await browser.newContext();
  const admin = await context.newPage();
  await openConsoleAsAdmin(admin);

  // An integration with a catalog tariff and no balance, every lookup enabled.
  const integration = `ids-${Date.now().toString(36)}`;
  await admin.goto(`${baseUrl}/admin/integraciones/nueva`);
  await admin.getByLabel('Nombre (login)').fill(integration);
  await admin.getByLabel('Tarifa por consulta de catálogo (Q)').fill('1.50');
  for (const lookupLabel of ['RENAP por CUI', 'RTU por NIT', 'Catálogo CUI/NIT', 'Catálogo RTU', 'Catálogo omisos']) {
    await admin.getByRole('checkbox', { name: lookupLabel }).check();
  }
  await admin.getByRole('button', { name: 'Crear integración' }).click();
  await expect(admin.getByTestId('new-token')).toHaveText(/^tlk_/);
  const token = (await admin.getByTestId('new-token').textContent())!.trim();

  supportEmail = `soporte-ids-${Date.now().toString(36)}@example.com`;
  supportPassword = await createUserThroughForm(admin, supportEmail, 'Soporte ids');
  await context.close();

  const as = { login: integration, token, ip: '198.51.100.61' };
  const sample = population();

  // A 402: a catalog lookup with no balance.
  const refusedForBalance = await lookup(request, '/api/catalogos/omisos', as, { nit: sample.omiso.nit });
  expect(refusedForBalance.status()).toBe(402);

  // A 429: one registry lookup past the integration's per-minute limit.
  for (let i = 0; i < RENAP_PER_MINUTE; i++) {
    expect((await lookup(request, '/api/renap/buscar-cui', as, { cui: sample.individual.cui })).status()).toBe(200);
  }
  const refusedForLimit = await lookup(request, '/api/renap/buscar-cui', as, { cui: sample.individual.cui });
  expect(refusedForLimit.status()).toBe(429);

  // A replayed 200: the demo integration repeats a charged catalog lookup with its Idempotency-Key.
  const demo = { login: 'demo', token: demoToken(), ip: '198.51.100.62' };
  const key = { 'idempotency-key': `e2e-ids-${Date.now().toString(36)}` };
  const original = await lookup(request, '/api/catalogos/omisos', demo, { nit: sample.omiso.nit }, key);
  expect(original.status()).toBe(200);
  const replay = await lookup(request, '/api/catalogos/omisos', demo, { nit: sample.omiso.nit }, key);
  expect(replay.status()).toBe(200);
  expect(replay.headers()['idempotency-replayed']).toBe('true');

  ids = {
    integration,
    refusedForBalance: requestIdOf(refusedForBalance),
    refusedForLimit: requestIdOf(refusedForLimit),
    replay: requestIdOf(replay),
    replayed: requestIdOf(original),
  };
  expect(ids.replay).not.toBe(ids.replayed);
});

/** Types the id into the records search as support would, until the instance has written its trace (every half second here). */
async function searchRequestId(page: Page, requestId: string, shows: (page: Page) => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.goto(`${settings().baseUrl}/admin/registros`);
    await page.getByLabel('NIT, CUI o id de solicitud').fill(requestId);
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await shows(page);
  }).toPass({ timeout: 15_000 });
}

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`soporte explica, solo con su id de solicitud, una repetición, un 402 y un 429, y si se cobraron (${viewport.width} px)`, async ({ browser }, testInfo) => {
    const context = await browser.newContext({ viewport });
    const support = await context.newPage();
    if (supportPasswordChanged) await signInThroughForm(support, supportEmail, supportPassword);
    else {
      supportPassword = await signInFirstTime(support, supportEmail, supportPassword);
      supportPasswordChanged = true;
    }

    const expectOnScreen = async (page: Page) => {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    };

    // The 402: refused before any source, no balance, not charged.
    await searchRequestId(support, ids.refusedForBalance, async (page) => {
      await expect(page.getByTestId('request-traced-summary')).toHaveText(
        new RegExp(`^${escape(ids.refusedForBalance)}: ${escape(ids.integration)}, /api/catalogos/omisos, 402 sin saldo, ${CONSOLE_TIME}, sin cobro$`),
      );
    });
    await expect(support.getByTestId('request-traced')).toContainText('no es una consulta registrada y no se cobró');
    await expectOnScreen(support);
    await screenshot(support, testInfo, `id-402-${viewport.width}`);

    // The 429: the integration's per-minute limit on the registry, not charged.
    await searchRequestId(support, ids.refusedForLimit, async (page) => {
      await expect(page.getByTestId('request-traced-summary')).toHaveText(
        new RegExp(`^${escape(ids.refusedForLimit)}: ${escape(ids.integration)}, /api/renap/buscar-cui, 429 límite por minuto de la integración, ${CONSOLE_TIME}, sin cobro$`),
      );
    });
    await expectOnScreen(support);

    // The replayed 200: its id opens the query it repeated, which was charged once.
    await searchRequestId(support, ids.replay, async (page) => {
      await expect(page).toHaveURL(/\/admin\/registros\/\d+\?/);
      await expect(page.getByTestId('record-replay')).toHaveText(
        new RegExp(
          `^${escape(ids.replay)} es una repetición de ${escape(ids.replayed)} con la misma Idempotency-Key \\(${CONSOLE_TIME}\\): recibió la misma respuesta que esta consulta \\(200\\) y no se cobró; esta consulta se cobró una vez \\(Q \\d+\\.\\d{2}\\)\\.$`,
        ),
      );
    });
    await expectOnScreen(support);
    await screenshot(support, testInfo, `id-repeticion-${viewport.width}`);
    await context.close();
  });
}
