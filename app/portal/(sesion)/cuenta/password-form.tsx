'use client';

import { useRouter } from 'next/navigation';
import { ActionForm, Field } from '@/components/console/action-form';
import { changePortalPasswordAction } from './actions';

export function PortalPasswordForm({ minLength }: { minLength: number }) {
  const router = useRouter();
  return (
    <ActionForm
      action={changePortalPasswordAction}
      submitLabel="Cambiar contraseña"
      pendingLabel="Cambiando…"
      resetOnSuccess
      onSuccess={() => router.replace('/portal/ingresar?motivo=clave-cambiada')}
    >
      <Field name="actual" label="Contraseña actual" type="password" autoComplete="current-password" required />
      <Field name="nueva" label="Nueva contraseña" type="password" autoComplete="new-password" required minLength={minLength} hint={`Al menos ${minLength} caracteres; mejor una frase de varias palabras.`} />
      <Field name="confirmacion" label="Repita la nueva contraseña" type="password" autoComplete="new-password" required />
    </ActionForm>
  );
}
