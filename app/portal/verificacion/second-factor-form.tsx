'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { verifyPortalSecondFactorAction } from './actions';

/** The authenticator app's code, or (without the phone) one of the recovery codes; then Inicio. */
export function PortalSecondFactorForm() {
  const router = useRouter();
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const [recoveryNotice, setRecoveryNotice] = useState<number | null>(null);

  function enter() {
    router.replace('/portal');
    router.refresh();
  }

  if (recoveryNotice !== null) {
    return (
      <div className="two-factor">
        <p className="notice info" role="status">
          Usaste un código de recuperación: ya no sirve. {recoveryNotice === 1 ? 'Te queda 1.' : `Te quedan ${recoveryNotice}.`} Genera códigos nuevos en «Mi
          cuenta» si te quedan pocos; si perdiste el teléfono, pide a un propietario de tu integración o al equipo del servicio que restablezcan tu verificación.
        </p>
        <div className="actions">
          <button type="button" onClick={enter}>
            Entrar al portal
          </button>
        </div>
      </div>
    );
  }

  return (
    <ActionForm
      key={useRecoveryCode ? 'recovery' : 'app'}
      action={verifyPortalSecondFactorAction}
      submitLabel="Verificar"
      pendingLabel="Verificando…"
      onSuccess={(data) => (data.recoveryCodesLeft === null ? enter() : setRecoveryNotice(data.recoveryCodesLeft))}
    >
      {useRecoveryCode ? (
        <Field name="codigo" label="Código de recuperación" hint="Uno de los diez códigos que guardaste al activar la verificación; cada uno sirve una vez." autoComplete="off" autoCapitalize="none" spellCheck={false} autoFocus />
      ) : (
        <Field name="codigo" label="Código de verificación" hint="Los 6 dígitos que muestra ahora tu aplicación de autenticación." autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]*" maxLength={7} autoFocus />
      )}
      <button type="button" className="link-button small" onClick={() => setUseRecoveryCode(!useRecoveryCode)}>
        {useRecoveryCode ? 'Usar el código de la aplicación' : '¿No tienes el teléfono? Usa un código de recuperación'}
      </button>
    </ActionForm>
  );
}
