// Console sign-in throttling, per account and per IP (lib/auth/throttle.ts). The app trusts one
// proxy hop in the e2e run, so each test signs in "from" its own addresses.
import { expect, test } from '@playwright/test';
import { attemptSignIn, clientFrom, csrfToken, screenshot, settings, signInThroughForm } from './support/console';

test('una cuenta se frena tras 5 fallos y se bloquea 15 minutos al décimo, desde cualquier IP', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const { baseUrl, adminEmail, adminPassword } = settings();
  const email = `bloqueo-${Date.now().toString(36)}@example.com`;
  await signInThroughForm(page, adminEmail, adminPassword);
  await page.goto(`${baseUrl}/admin/usuarios`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Nombre', { exact: true }).fill('Cuenta para bloquear');
  await page.getByRole('button', { name: 'Crear usuario' }).click();
  const password = (await page.getByTestId('new-user-password').textContent())!.trim();

  const attacker = await clientFrom('10.10.0.1');
  const messages: string[] = [];
  const durations: number[] = [];
  for (let attempt = 1; attempt <= 10; attempt++) {
    const started = Date.now();
    messages.push((await attemptSignIn(attacker, email, `incorrecta-${attempt}`)) ?? 'entró');
    durations.push(Date.now() - started);
  }
  expect(messages.slice(0, 6)).toEqual(Array(6).fill('Correo o contraseña incorrectos.'));
  expect(messages[6]).toContain('Te quedan 3 intentos');
  expect(messages[8]).toContain('Te queda 1 intento');
  expect(messages[9]).toContain('queda bloqueado durante 15 minutos');
  // Slowed: the 8th attempt waits 3 s before the password is even checked.
  expect(durations[7]).toBeGreaterThanOrEqual(3_000);

  // Locked: the right password from another address is refused too.
  const elsewhere = await clientFrom('10.10.0.2');
  expect(await attemptSignIn(elsewhere, email, password)).toContain('vuelve a intentarlo en 15 minutos');

  // Other accounts are not locked, even from the attacker's address.
  expect(await attemptSignIn(attacker, adminEmail, adminPassword)).toBeNull();

  // The form says so in Spanish.
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.10.0.3' } });
  const form = await context.newPage();
  await form.goto(`${baseUrl}/admin/login`);
  await form.getByLabel('Correo electrónico').fill(email);
  await form.getByLabel('Contraseña').fill(password);
  await form.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(form.locator('p.notice.error')).toContainText('Demasiados intentos fallidos');
  await screenshot(form, testInfo, '13-inicio-de-sesion-bloqueado');
  await context.close();
  await attacker.dispose();
  await elsewhere.dispose();
});

test('una IP que falla 20 veces, con cualquier cuenta, queda bloqueada; otras IP no', async () => {
  test.setTimeout(120_000);
  const { adminEmail, adminPassword } = settings();
  const attacker = await clientFrom('10.20.0.1');
  // In parallel: each attempt is counted before its password is checked, so none slips through.
  const token = await csrfToken(attacker);
  const refusals = await Promise.all(
    Array.from({ length: 20 }, (_, index) => attemptSignIn(attacker, `nadie-${index}@example.com`, 'adivinanza', token)),
  );
  expect(refusals.filter((message) => message === 'Correo o contraseña incorrectos.')).toHaveLength(19);
  expect(refusals).toContain('Demasiados intentos fallidos. Por seguridad el acceso queda bloqueado durante 15 minutos.');

  expect(await attemptSignIn(attacker, adminEmail, adminPassword)).toContain('Demasiados intentos fallidos');
  const neighbour = await clientFrom('10.20.0.2');
  expect(await attemptSignIn(neighbour, adminEmail, adminPassword)).toBeNull();
  await attacker.dispose();
  await neighbour.dispose();
});
