'use client';

import { ActionForm, Field } from '@/components/console/action-form';
import { signOutTo } from '@/components/console/sign-out';
import { changePasswordAction } from './actions';

export function ChangePasswordForm({ minLength }: { minLength: number }) {
  return (
    <ActionForm
      action={changePasswordAction}
      submitLabel="Cambiar contraseña"
      pendingLabel="Cambiando…"
      // A password change ends every session, this one included: sign in again with the new one.
      onSuccess={() => void signOutTo('/admin/login?motivo=clave-cambiada')}
    >
      <Field name="actual" label="Contraseña actual" type="password" autoComplete="current-password" />
      <Field name="nueva" label="Nueva contraseña" hint={`Al menos ${minLength} caracteres y que no sea de las más usadas. Una frase larga es más fácil de recordar.`} type="password" autoComplete="new-password" />
      <Field name="confirmacion" label="Repita la nueva contraseña" type="password" autoComplete="new-password" />
    </ActionForm>
  );
}
