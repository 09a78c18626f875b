// Console sign-in throttling, per account and IP, per IP and at the account's pace (lib/flows/auth/throttle.ts).
// The app trusts one proxy hop in the e2e run, so each test signs in "from" its own addresses.
// attemptSignIn answers the refusal's code (lib/flows/auth/sign-in-errors.ts); the form shows its text.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { attemptSignIn, clientFrom, createUserThroughForm, csrfToken, openConsoleAsAdmin, screenshot, settings } from './support/console';

test('un atacante que conoce el correo se bloquea a sí mismo al décimo fallo; la cuenta sigue entrando desde otra IP', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const { baseUrl, adminEmail, adminPassword } = settings();
  const email = `bloqueo-${Date.now().toString(36)}@example.com`;
  await openConsoleAsAdmin(page);
  const password = await createUserThroughForm(page, email, 'Cuenta para bloquear');

  // The owner signs in once from her own browser: a known device of her account from then on.
  const elsewhere = await clientFrom('10.10.0.2');
  expect(await attemptSignIn(elsewhere, email, password)).toBeNull();

  const attacker = await clientFrom('10.10.0.1');
  const messages: string[] = [];
  const durations: number[] = [];
  for (let attempt = 1; attempt <= 10; attempt++) {
    const started = Date.now();
    messages.push((await attemptWhenItsTurn(attacker, email, `incorrecta-${attempt}`)) ?? 'entró');
    durations.push(Date.now() - started);
  }
  expect(messages.slice(0, 6)).toEqual(Array(6).fill('invalid_credentials'));
  expect(messages.slice(6)).toEqual(['attempts_left_3', 'attempts_left_2', 'attempts_left_1', 'locked_now']);
  // Slowed: the 8th attempt waits 3 s before the password is even checked.
  expect(durations[7]).toBeGreaterThanOrEqual(3_000);

  // The last guess made the account's next turn 16 s away: until then no browser the owner never
  // used can try, not even with the right password, and the form says why and for how long.
  const stranger = await clientFrom('10.10.0.3');
  expect(await attemptSignIn(stranger, email, password)).toMatch(/^paced_\d+$/);
  const newBrowser = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.10.0.4' } });
  const paced = await newBrowser.newPage();
  await paced.goto(`${baseUrl}/admin/login`);
  await paced.getByLabel('Correo electrónico').fill(email);
  await paced.getByLabel('Contraseña').fill(password);
  await paced.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(paced.locator('p.notice.error')).toContainText(/Esta cuenta está recibiendo muchos intentos fallidos de inicio de sesión\. .* vuelva a intentarlo en \d+ segundos?\./);
  await screenshot(paced, testInfo, '13b-inicio-de-sesion-al-ritmo-de-la-cuenta');
  await newBrowser.close();

  // Locked for the attacker's address: even the right password is refused from there.
  expect(await attemptSignIn(attacker, email, password)).toBe('locked_15');

  // Her own browser, from another address, gets in at once: the account is never locked out.
  expect(await attemptSignIn(elsewhere, email, password)).toBeNull();

  // Other accounts are not locked, even from the attacker's address.
  expect(await attemptSignIn(attacker, adminEmail, adminPassword)).toBeNull();

  // The form says so in Spanish, from the attacker's address.
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.10.0.1' } });
  const form = await context.newPage();
  await form.goto(`${baseUrl}/admin/login`);
  await form.getByLabel('Correo electrónico').fill(email);
  await form.getByLabel('Contraseña').fill(password);
  await form.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(form.locator('p.notice.error')).toContainText('Demasiados intentos fallidos');
  await screenshot(form, testInfo, '13-inicio-de-sesion-bloqueado');
  await context.close();

  await attacker.dispose();
  await stranger.dispose();
  await elsewhere.dispose();
});

/** A sign-in attempt once the account's turn has come (a paced refusal says how many seconds to wait). */
async function attemptWhenItsTurn(client: APIRequestContext, email: string, password: string): Promise<string | null> {
  for (;;) {
    const code = await attemptSignIn(client, email, password);
    const paced = /^paced_(\d+)$/.exec(code ?? '');
    if (!paced) return code;
    await new Promise((resolve) => setTimeout(resolve, Number(paced[1]) * 1_000));
  }
}

test('una IP que falla 20 veces, con cualquier cuenta, queda bloqueada; otras IP no', async () => {
  test.setTimeout(120_000);
  const { adminEmail, adminPassword } = settings();
  const attacker = await clientFrom('10.20.0.1');
  // In parallel: each attempt is counted before its password is checked, so none slips through.
  const token = await csrfToken(attacker);
  const refusals = await Promise.all(
    Array.from({ length: 20 }, (_, index) => attemptSignIn(attacker, `nadie-${index}@example.com`, 'adivinanza', token)),
  );
  expect(refusals.filter((code) => code === 'invalid_credentials')).toHaveLength(19);
  expect(refusals).toContain('locked_now');

  expect(await attemptSignIn(attacker, adminEmail, adminPassword)).toBe('locked_15');
  const neighbour = await clientFrom('10.20.0.2');
  expect(await attemptSignIn(neighbour, adminEmail, adminPassword)).toBeNull();
  await attacker.dispose();
  await neighbour.dispose();
});
