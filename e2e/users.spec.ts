// Console users as an administrator manages them: promoting someone to administrator is asked
// first, in the page's own dialog (never the browser's confirm), naming the person and the role.
import { expect, test } from '@playwright/test';
import { createUserThroughForm, openConsoleAsAdmin, settings } from './support/console';

const LAST_ADMIN = 'Debe quedar al menos un administrador activo: asigna el rol de administrador a otra persona antes de hacer este cambio.';

test('el menú de rol vuelve al rol guardado tras cancelar o tras un rechazo; una contraseña nueva quita la anterior de la pantalla (issue 24, punto 8)', async ({ page }) => {
  const { adminEmail } = settings();
  await openConsoleAsAdmin(page);
  await page.goto(`${settings().baseUrl}/admin/usuarios`);
  const users = page.getByTestId('users');

  // This admin is made the only active one (others, made by earlier tests, become support), so
  // demoting itself is refused.
  const otherAdmins = users.locator('tbody tr', { hasNot: page.locator('.badge', { hasText: 'Usted' }) }).filter({ has: page.locator('td[data-label="Rol"]', { hasText: 'Administrador' }) }).filter({ has: page.locator('td[data-label="Estado"]', { hasText: 'Activo' }) });
  while ((await otherAdmins.count()) > 0) {
    const row = otherAdmins.first();
    await row.getByRole('combobox').selectOption('support');
    await row.getByRole('button', { name: 'Cambiar rol' }).click();
    await expect(row.locator('td[data-label="Rol"]')).toHaveText('Soporte');
  }
  const own = users.locator('tbody tr', { has: page.locator('.badge', { hasText: 'Usted' }) });
  await own.getByLabel(`Rol de ${adminEmail}`).selectOption('support');
  await own.getByRole('button', { name: 'Cambiar rol' }).click();
  await expect(own.getByRole('alert')).toHaveText(LAST_ADMIN);
  await expect(own.getByLabel(`Rol de ${adminEmail}`)).toHaveValue('admin');
  await expect(own.locator('td[data-label="Rol"]')).toHaveText('Administrador');

  // A cancelled promotion puts the menu back too.
  const email = `menu-${Date.now().toString(36)}@example.com`;
  const initial = await createUserThroughForm(page, email, 'Menú Devuelto');
  expect(initial.length).toBeGreaterThan(0);
  const row = users.locator('tr', { hasText: email });
  await row.getByLabel(`Rol de ${email}`).selectOption('admin');
  await row.getByRole('button', { name: 'Cambiar rol' }).click();
  const question = page.getByRole('dialog', { name: `¿Hacer administrador a Menú Devuelto (${email})?` });
  await question.getByRole('button', { name: 'Cancelar' }).click();
  await expect(question).toBeHidden();
  await expect(row.getByLabel(`Rol de ${email}`)).toHaveValue('support');

  // Resetting the new user's password takes the initial one off the screen, and creating another
  // user takes the reset one away: one password on screen, the newest.
  await expect(page.getByTestId('new-user-password')).toHaveText(initial);
  await row.getByRole('button', { name: 'Restablecer contraseña' }).click();
  await page.getByRole('dialog', { name: `¿Restablecer la contraseña de ${email}?` }).getByRole('button', { name: 'Restablecer contraseña' }).click();
  const reset = page.getByRole('status').filter({ hasText: `Nueva contraseña de ${email}` });
  await expect(reset).toBeVisible();
  await expect(page.getByTestId('new-user-password')).toHaveCount(0);
  await expect(page.getByText(`Contraseña inicial de ${email}`)).toHaveCount(0);
  // On the same page, without reloading it.
  await page.getByLabel('Correo electrónico').fill(`otra-${email}`);
  await page.getByLabel('Nombre', { exact: true }).fill('Otra Persona');
  await page.getByRole('button', { name: 'Crear usuario' }).click();
  await expect(page.getByText(`Contraseña inicial de otra-${email}`)).toBeVisible();
  await expect(reset).toHaveCount(0);
});

test('hacer administrador a alguien se confirma en un diálogo que la nombra; cancelar no cambia nada', async ({ page }) => {
  const nativeDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    nativeDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const email = `promovida-${Date.now().toString(36)}@example.com`;
  await openConsoleAsAdmin(page);
  await createUserThroughForm(page, email, 'Ana Promovida');

  const row = page.getByTestId('users').locator('tr', { hasText: email });
  const role = row.locator('td[data-label="Rol"]');
  await expect(role).toHaveText('Soporte');
  const question = page.getByRole('dialog', { name: `¿Hacer administrador a Ana Promovida (${email})?` });

  // Cancelling leaves the person as they were, also after a reload.
  await row.getByLabel(`Rol de ${email}`).selectOption('admin');
  await row.getByRole('button', { name: 'Cambiar rol' }).click();
  await expect(question).toBeVisible();
  await expect(question).toContainText('Pasará de Soporte a Administrador');
  await expect(question.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await question.getByRole('button', { name: 'Cancelar' }).click();
  await expect(question).toBeHidden();
  await expect(page.getByText(`${email} ahora es administrador.`)).toHaveCount(0);
  await page.reload();
  await expect(role).toHaveText('Soporte');

  // Confirming promotes, and the list says so.
  await row.getByLabel(`Rol de ${email}`).selectOption('admin');
  await row.getByRole('button', { name: 'Cambiar rol' }).click();
  await question.getByRole('button', { name: 'Hacer administrador' }).click();
  await expect(question).toBeHidden();
  await expect(page.getByText(`${email} ahora es administrador.`)).toBeVisible();
  await expect(role).toHaveText('Administrador');
  await page.reload();
  await expect(role).toHaveText('Administrador');
  expect(nativeDialogs).toEqual([]);
});
