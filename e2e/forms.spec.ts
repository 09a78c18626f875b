// The console's forms as an administrator uses them: money messages, the confirmation dialog,
// double submits, the switches' "Guardado", filters that survive a visit to a record, refusals per
// reason on the integration page, and an audit log people can read and filter.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { samplePopulation } from '../simulator/population';
import { callServerAction, demoToken, openConsoleAsAdmin, settings } from './support/console';

test.describe.serial('formularios y avisos de la consola', () => {
  let context: BrowserContext;
  let admin: Page;
  let integrationId = 0;
  let integrationUrl = '';
  // Its sections: money in "Saldo y estados de cuenta", the 30 days in "Uso".
  let balanceUrl = '';
  let usageUrl = '';

  test.beforeAll(async ({ browser }) => {
    const { baseUrl } = settings();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    admin = await context.newPage();
    await openConsoleAsAdmin(admin);
    await admin.goto(`${baseUrl}/admin/integraciones`);
    const href = await admin.getByRole('link', { name: 'demo', exact: true }).getAttribute('href');
    integrationId = Number(/\/admin\/integraciones\/(\d+)/.exec(href ?? '')![1]);
    integrationUrl = `${baseUrl}/admin/integraciones/${integrationId}`;
    balanceUrl = `${integrationUrl}/saldo`;
    usageUrl = `${integrationUrl}/uso`;
    await admin.goto(balanceUrl);
  });

  test.afterAll(async () => {
    await context?.close();
  });

  test('los montos dicen exactamente qué corregir, en quetzales', async () => {
    const form = admin.locator('form', { has: admin.getByTestId('topup-amount') });
    await admin.getByTestId('topup-note').fill('Prueba de montos');
    const cases: Array<[string, string]> = [
      ['-1', 'El monto debe ser mayor que cero.'],
      ['2.555', 'Use como máximo dos decimales.'],
      ['100000000.01', 'El monto máximo es Q 100,000,000.00.'],
    ];
    for (const [typed, message] of cases) {
      await admin.getByTestId('topup-amount').fill(typed);
      await form.getByRole('button', { name: 'Recargar', exact: true }).click();
      await expect(form.locator('.field .error')).toHaveText(message);
      await expect(admin.getByTestId('topup-amount')).toHaveAttribute('aria-invalid', 'true');
    }
    await expect(admin.getByRole('dialog')).toHaveCount(0);
  });

  test('una tarifa cero y un ajuste se confirman en un diálogo con el monto y el saldo resultante', async () => {
    const balance = (await admin.getByTestId('balance').textContent())!.trim();
    const tariff = (await admin.getByTestId('tariff').textContent())!.trim();
    await admin.getByLabel('Tarifa por consulta (Q)').fill('0');
    await admin.getByRole('button', { name: 'Guardar tarifa' }).click();
    const zero = admin.getByRole('dialog', { name: '¿Tarifa cero para «demo»?' });
    await expect(zero).toBeVisible();
    await admin.keyboard.press('Escape');
    await expect(zero).toBeHidden();
    await admin.reload();
    await expect(admin.getByTestId('tariff')).toHaveText(tariff);

    await admin.getByLabel('Monto del ajuste (Q)').fill('-1.25');
    await admin.getByLabel('Nota (obligatoria)').nth(1).fill('Prueba del diálogo');
    await admin.getByRole('button', { name: 'Registrar ajuste' }).click();
    const adjust = admin.getByRole('dialog', { name: '¿Restar Q 1.25 al saldo de «demo»?' });
    const cents = Number(balance.replace(/[^\d]/g, ''));
    const after = `Q ${((cents - 125) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    await expect(adjust).toContainText(`El saldo pasará de ${balance} a ${after}.`);
    await adjust.getByRole('button', { name: 'Registrar ajuste' }).click();
    await expect(admin.getByText(`Saldo actual: ${after}`)).toBeVisible();
    await expect(admin.getByTestId('balance')).toHaveText(after);
  });

  test('un cambio de tarifa pide confirmación con el precio anterior y el nuevo, y señala un cambio de cien veces (issue 24, punto 4)', async () => {
    await admin.goto(balanceUrl);
    const tariff = (await admin.getByTestId('tariff').textContent())!.trim();
    expect(tariff).toBe('Q 1.50');
    // 150 typed for 1.50: the dialog says so, and cancelling leaves the tariff as it was.
    await admin.getByLabel('Tarifa por consulta (Q)').fill('150');
    await admin.getByRole('button', { name: 'Guardar tarifa' }).click();
    const typo = admin.getByRole('dialog', { name: '¿Cambiar la tarifa de «demo»?' });
    await expect(typo).toContainText('pasará de Q 1.50 a Q 150.00 por consulta');
    await expect(typo).toContainText('Es 100 veces la tarifa actual: revise el punto decimal.');
    await typo.getByRole('button', { name: 'Cancelar' }).click();
    await expect(typo).toBeHidden();
    await admin.reload();
    await expect(admin.getByTestId('tariff')).toHaveText('Q 1.50');

    // A change confirmed in the dialog is saved; putting it back asks again.
    await admin.getByLabel('Tarifa por consulta (Q)').fill('1.75');
    await admin.getByRole('button', { name: 'Guardar tarifa' }).click();
    const change = admin.getByRole('dialog', { name: '¿Cambiar la tarifa de «demo»?' });
    await expect(change).toContainText('pasará de Q 1.50 a Q 1.75 por consulta');
    await expect(change).not.toContainText('veces');
    await change.getByRole('button', { name: 'Guardar tarifa Q 1.75' }).click();
    await expect(admin.getByText('Tarifa actualizada a Q 1.75 por consulta.')).toBeVisible();
    await expect(admin.getByTestId('tariff')).toHaveText('Q 1.75');
    await admin.getByLabel('Tarifa por consulta (Q)').fill('1.50');
    await admin.getByRole('button', { name: 'Guardar tarifa' }).click();
    await admin.getByRole('dialog', { name: '¿Cambiar la tarifa de «demo»?' }).getByRole('button', { name: 'Guardar tarifa Q 1.50' }).click();
    await expect(admin.getByTestId('tariff')).toHaveText('Q 1.50');
  });

  test('un doble clic en «Recargar Q 50.00» del diálogo recarga una vez y no pulsa «Guardar tarifa» debajo (issue 24, punto 9)', async () => {
    await admin.goto(balanceUrl);
    const before = Number((await admin.getByTestId('balance').textContent())!.replace(/[^\d]/g, ''));
    const form = admin.locator('form', { has: admin.getByTestId('topup-amount') });
    await admin.getByTestId('topup-amount').fill('50');
    await admin.getByTestId('topup-note').fill('Doble clic en el diálogo');
    await form.getByRole('button', { name: 'Recargar', exact: true }).click();
    const question = admin.getByRole('dialog', { name: '¿Recargar Q 50.00 a «demo»?' });
    await question.getByRole('button', { name: 'Recargar Q 50.00' }).dblclick();
    const after = `Q ${((before + 5000) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    await expect(admin.getByText(`Recarga de Q 50.00 registrada. Saldo actual: ${after}.`)).toBeVisible();
    await expect(question).toBeHidden();
    await expect(admin.getByTestId('balance')).toHaveText(after);
    // Nothing was sent from the tariff form: no notice under it, and no tariff change in the audit.
    const tariffForm = admin.locator('form', { has: admin.getByLabel('Tarifa por consulta (Q)') });
    await expect(tariffForm.locator('.notice')).toHaveCount(0);
    await admin.goto(`${settings().baseUrl}/admin/auditoria`);
    await expect(admin.getByRole('heading', { name: 'Auditoría', level: 1 })).toBeVisible();
    const latest = admin.getByTestId('audit').locator('tbody tr').first();
    await expect(latest).toContainText('Recargó saldo');
    await expect(latest).toContainText('Q 50.00');
  });

  test('un ajuste con «+10» se confirma; uno que el saldo no permite no ofrece «Registrar ajuste» (issue 24, punto 10)', async () => {
    await admin.goto(balanceUrl);
    const before = Number((await admin.getByTestId('balance').textContent())!.replace(/[^\d]/g, ''));
    await admin.getByLabel('Monto del ajuste (Q)').fill('+10');
    await admin.getByLabel('Nota (obligatoria)').nth(1).fill('Bonificación e2e');
    await admin.getByRole('button', { name: 'Registrar ajuste' }).click();
    const add = admin.getByRole('dialog', { name: '¿Sumar Q 10.00 al saldo de «demo»?' });
    await add.getByRole('button', { name: 'Registrar ajuste' }).click();
    const after = `Q ${((before + 1000) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    await expect(admin.getByText(`Saldo actual: ${after}`)).toBeVisible();

    await admin.getByLabel('Monto del ajuste (Q)').fill(`-${(before + 1000) / 100 + 1}`);
    await admin.getByLabel('Nota (obligatoria)').nth(1).fill('Demasiado');
    await admin.getByRole('button', { name: 'Registrar ajuste' }).click();
    const refused = admin.getByRole('dialog', { name: /^No se puede restar/ });
    await expect(refused).toContainText('se rechazará');
    await expect(refused.getByRole('button', { name: 'Registrar ajuste' })).toHaveCount(0);
    await refused.getByRole('button', { name: 'Volver y corregir' }).click();
    await expect(refused).toBeHidden();
    await expect(admin.getByLabel('Monto del ajuste (Q)')).toHaveValue(`-${(before + 1000) / 100 + 1}`);
    await expect(admin.getByTestId('balance')).toHaveText(after);
  });

  test('enviar dos veces la misma recarga la registra una sola vez y no muestra error', async () => {
    const before = (await admin.getByTestId('balance').textContent())!.trim();
    const input = { integrationId, monto: '10.00', nota: 'Doble envío e2e', envio: crypto.randomUUID() };
    const [first, second] = await Promise.all([callServerAction(admin, 'topUpAction', input), callServerAction(admin, 'topUpAction', input)]);
    expect(first).toContain('Recarga de Q 10.00 registrada');
    expect(second).toContain('Recarga de Q 10.00 registrada');
    await admin.reload();
    const cents = Number(before.replace(/[^\d]/g, '')) + 1000;
    await expect(admin.getByTestId('balance')).toHaveText(`Q ${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);

    // A double click on a form without a question creates one integration, with no error under it.
    const name = `doble-${Date.now().toString(36)}`;
    await admin.goto(`${settings().baseUrl}/admin/integraciones/nueva`);
    await admin.getByLabel('Nombre (login)').fill(name);
    await admin.getByRole('button', { name: 'Crear integración' }).dblclick();
    await expect(admin.getByTestId('new-token')).toHaveText(/^tlk_/);
    await expect(admin.locator('.notice.error')).toHaveCount(0);
    await admin.goto(`${settings().baseUrl}/admin/integraciones?q=${name}`);
    await expect(admin.getByTestId('integrations').locator('tbody tr')).toHaveCount(1);
  });

  test('cada interruptor dice «Guardado» al guardar, y el aviso se va con el siguiente', async () => {
    await admin.goto(integrationUrl);
    await admin.getByTestId('switch-renap').click();
    await expect(admin.getByTestId('saved-renap')).toHaveText('Guardado ✓');
    await admin.getByTestId('switch-renap').click();
    await expect(admin.getByTestId('saved-renap')).toHaveText('Guardado ✓');
    await admin.getByTestId('switch-rtu_nits').click();
    await expect(admin.getByTestId('saved-rtu_nits')).toHaveText('Guardado ✓');
    await expect(admin.getByTestId('saved-renap')).toHaveText('');
    await admin.getByTestId('switch-rtu_nits').click();
    await expect(admin.getByTestId('switch-rtu_nits')).toHaveAttribute('aria-checked', 'true');
  });

  test('la integración muestra sus solicitudes rechazadas antes de la fuente, por motivo', async ({ request }) => {
    const { baseUrl } = settings();
    // A body without an identifier is refused before the source (400): not a query record, but
    // counted for the integration.
    const refused = await request.post(`${baseUrl}/api/catalogos/omisos`, {
      headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken() },
      data: {},
    });
    expect(refused.status()).toBe(400);
    await expect(async () => {
      await admin.goto(usageUrl);
      await expect(admin.getByTestId('integration-refusals').locator('tr', { hasText: 'Solicitud no válida (400)' })).toContainText(/\d/, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
  });

  test('la integración muestra su uso de 30 días: por tipo y resultado, cobro y tiempo de respuesta', async ({ request }) => {
    const { baseUrl } = settings();
    const nit = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;
    const answer = await request.post(`${baseUrl}/api/catalogos/omisos`, {
      headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken() },
      data: { nit },
    });
    expect(answer.status()).toBe(200);
    const omisos = admin.getByTestId('integration-usage-by-lookup').locator('tr', { hasText: 'Catálogo omisos' });
    await expect(async () => {
      await admin.goto(usageUrl);
      await expect(omisos).toContainText(/\d+ ms/, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await expect(omisos).toContainText(/Q \d/);
    await expect(admin.getByTestId('usage-charged')).not.toHaveText('Q 0.00');
    await expect(admin.getByRole('img', { name: 'Consultas de demo por tipo a lo largo del tiempo' })).toBeVisible();
    await expect(admin.getByRole('img', { name: 'Consultas de demo por resultado a lo largo del tiempo' })).toBeVisible();
  });

  test('el enlace de regreso de una consulta conserva los filtros; un rango de fechas al revés es un error del campo', async () => {
    const { baseUrl } = settings();
    await admin.goto(`${baseUrl}/admin/registros?integracion=${integrationId}&consulta=omisos`);
    await admin.getByTestId('records').locator('tbody tr').first().getByRole('link').first().click();
    await expect(admin.getByRole('heading', { level: 1, name: /^Consulta \d+$/ })).toBeVisible();
    await admin.getByRole('link', { name: '← Registros de consultas' }).click();
    await expect(admin).toHaveURL(new RegExp(`/admin/registros\\?integracion=${integrationId}&consulta=omisos$`));
    await expect(admin.getByLabel('Consulta', { exact: true })).toHaveValue('omisos');

    await admin.goto(`${baseUrl}/admin/registros?desde=2026-11-20&hasta=2026-11-01`);
    await expect(admin.getByLabel('Hasta (incluido)')).toHaveAttribute('aria-invalid', 'true');
    await expect(admin.locator('#hasta-error')).toHaveText('La fecha final es anterior a la inicial.');

    await admin.goto(`${baseUrl}/admin/integraciones/${integrationId}/movimientos?desde=2026-11-20&hasta=2026-11-01`);
    await expect(admin.getByLabel('Hasta (incluido)')).toHaveAttribute('aria-invalid', 'true');
    await expect(admin.getByLabel('Hasta (incluido)')).toHaveValue('2026-11-01');
    await expect(admin.locator('#hasta-error')).toHaveText('La fecha final es anterior a la inicial.');
    await expect(admin.getByText('Se ignoraron filtros no válidos')).toHaveCount(0);
  });

  test('la auditoría muestra nombres, campos en español y montos en quetzales, y se filtra', async () => {
    const { baseUrl } = settings();
    await admin.goto(`${baseUrl}/admin/auditoria`);
    const audit = admin.getByTestId('audit');
    await expect(audit).toContainText('Administración');
    await expect(audit).toContainText('Integración demo');
    await expect(audit).not.toContainText(/[a-z]+Centavos|is[A-Z][A-Za-z]+Enabled|user:\d/);

    await admin.getByRole('combobox', { name: 'Cambio' }).selectOption({ label: 'Ajustó saldo' });
    await admin.getByRole('button', { name: 'Filtrar' }).click();
    await expect(admin).toHaveURL(/accion=balance.adjust/);
    const rows = audit.locator('tbody tr');
    await expect(rows.first()).toContainText('Ajustó saldo');
    // The dialog test's -Q 1.25 (a later test adds +Q 10.00 above it).
    await expect(rows.filter({ hasText: 'Monto: — → -Q 1.25' }).first()).toBeVisible();
    for (const row of await rows.all()) await expect(row).toContainText('Ajustó saldo');

    await admin.goto(`${baseUrl}/admin/auditoria?accion=integration.set_flags`);
    await expect(audit.locator('tbody tr').first()).toContainText(/RENAP por CUI habilitada: (sí|no) → (sí|no)|RTU por NIT habilitada/);

    await admin.goto(`${baseUrl}/admin/auditoria?quien=system`);
    await expect(audit.locator('tbody tr').first()).toContainText('El sistema');
    await admin.goto(`${baseUrl}/admin/auditoria?desde=2000-01-01&hasta=2000-01-02`);
    await expect(admin.getByText('No hay cambios registrados con estos filtros.')).toBeVisible();
  });
});
