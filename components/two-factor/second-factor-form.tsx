'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import type { ActionResult } from '@/lib/flows/auth/action';

interface SecondFactorFormProps {
  /** The realm's own action: it checks the code against the half-signed session of that realm. */
  verify: (input: unknown) => Promise<ActionResult<{ recoveryCodesLeft: number | null }>>;
  /** Where the user goes once the code is right (already checked to be a page of this realm). */
  returnTo: string;
  /** The button that goes there after a recovery code was used ("Entrar a la consola"). */
  enterLabel: string;
  /** What to do without the phone, said after a recovery code was used: who can reset it differs by realm. */
  recoveryAdvice: string;
}

/**
 * The second step of a sign-in, the console's and the portal's: the code of the authenticator app,
 * or (without the phone) one of the recovery codes; then `returnTo`.
 */
export function SecondFactorForm({ verify, returnTo, enterLabel, recoveryAdvice }: SecondFactorFormProps) {
  const router = useRouter();
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const [recoveryNotice, setRecoveryNotice] = useState<number | null>(null);

  function enter() {
    router.replace(returnTo);
    router.refresh();
  }

  if (recoveryNotice !== null) {
    return (
      <div className="two-factor">
        <p className="notice info" role="status">
          Usó un código de recuperación: ya no sirve. {recoveryNotice === 1 ? 'Le queda 1.' : `Le quedan ${recoveryNotice}.`} {recoveryAdvice}
        </p>
        <div className="actions">
          <button type="button" onClick={enter}>
            {enterLabel}
          </button>
        </div>
      </div>
    );
  }

  return (
    <ActionForm
      key={useRecoveryCode ? 'recovery' : 'app'}
      action={verify}
      submitLabel="Verificar"
      pendingLabel="Verificando…"
      onSuccess={(data) => (data.recoveryCodesLeft === null ? enter() : setRecoveryNotice(data.recoveryCodesLeft))}
    >
      {useRecoveryCode ? (
        <Field name="codigo" label="Código de recuperación" hint="Uno de los diez códigos que guardó al activar la verificación; cada uno sirve una vez." autoComplete="off" autoCapitalize="none" spellCheck={false} autoFocus />
      ) : (
        <Field name="codigo" label="Código de verificación" hint="Los 6 dígitos que muestra ahora su aplicación de autenticación." autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]*" maxLength={7} autoFocus />
      )}
      <button type="button" className="link-button small" onClick={() => setUseRecoveryCode(!useRecoveryCode)}>
        {useRecoveryCode ? 'Usar el código de la aplicación' : '¿No tiene el teléfono? Use un código de recuperación'}
      </button>
    </ActionForm>
  );
}
