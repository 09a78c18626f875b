// Console users as an administrator manages them: promoting someone to administrator is asked
// first, in the page's own dialog (never the browser's confirm), naming the person and the role.
import { expect, test } from '@playwright/test';
import { createUserThroughForm, settings, signInThroughForm } from './support/console';

test('hacer administrador a alguien se confirma en un diálogo que la nombra; cancelar no cambia nada', async ({ page }) => {
  const { adminEmail, adminPassword } = settings();
  const nativeDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    nativeDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const email = `promovida-${Date.now().toString(36)}@example.com`;
  await signInThroughForm(page, adminEmail, adminPassword);
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
