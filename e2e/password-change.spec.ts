// "Cambiar contraseña" (Mi cuenta) with wrong current passwords: what the form says as the
// guesses run out and once password changes are locked (lib/flows/auth/throttle.ts), and the audit page.
import { expect, test } from '@playwright/test';
import { callServerAction, createUserThroughForm, openConsoleAsAdmin, screenshot, settings, signInFirstTime } from './support/console';

test('tras 10 contraseñas actuales incorrectas el cambio de contraseña se bloquea 15 minutos, también con la correcta', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const { baseUrl } = settings();
  const email = `cambio-${Date.now().toString(36)}@example.com`;
  await openConsoleAsAdmin(page);
  const password = await createUserThroughForm(page, email, 'Cuenta para cambiar');

  // The user's own browser, from its own address (the app trusts one proxy hop in the e2e run).
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.40.0.1' } });
  const user = await context.newPage();
  const ownPassword = await signInFirstTime(user, email, password);
  await user.goto(`${baseUrl}/admin/cuenta`);
  const submit = async (current: string) => {
    await user.getByLabel('Contraseña actual', { exact: true }).fill(current);
    await user.getByLabel('Nueva contraseña', { exact: true }).fill('una frase nueva y bastante larga');
    await user.getByLabel('Repita la nueva contraseña').fill('una frase nueva y bastante larga');
    await user.getByRole('button', { name: 'Cambiar contraseña' }).click();
  };
  const notice = user.locator('p.notice.error');

  await submit('incorrecta-1');
  await expect(notice).toHaveText('La contraseña actual no es correcta.');
  // Seven more guesses at once, as a script holding the session cookie would send them.
  await Promise.all(
    Array.from({ length: 7 }, (_, index) =>
      callServerAction(user, 'changePasswordAction', { actual: `adivinanza-${index}`, nueva: 'otra frase larga cualquiera', confirmacion: 'otra frase larga cualquiera' }),
    ),
  );
  await submit('incorrecta-9');
  await expect(notice).toHaveText('La contraseña actual no es correcta. Le queda 1 intento antes de que el cambio de contraseña de su cuenta se bloquee durante 15 minutos.');
  await submit('incorrecta-10');
  await expect(notice).toHaveText('Demasiados intentos con una contraseña actual incorrecta. Por seguridad el cambio de contraseña de su cuenta queda bloqueado durante 15 minutos.');
  await submit(ownPassword);
  await expect(notice).toHaveText('Demasiados intentos con una contraseña actual incorrecta. Por seguridad el cambio de contraseña está bloqueado; vuelva a intentarlo en 15 minutos.');
  await screenshot(user, testInfo, 'cambio-de-contrasena-bloqueado');
  await context.close();

  // The administrator sees the guesses and the lock on Auditoría, in Spanish.
  await page.goto(`${baseUrl}/admin/auditoria?accion=user.change_password_locked`);
  const audit = page.getByTestId('audit');
  await expect(audit.getByRole('cell', { name: 'Bloqueo del cambio de contraseña por intentos fallidos' })).toHaveCount(1);
  await expect(audit).toContainText('Cuenta para cambiar');
  await expect(audit).toContainText('cambios de contraseña de esta cuenta');
});
