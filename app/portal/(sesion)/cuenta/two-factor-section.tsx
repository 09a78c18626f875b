'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { TwoFactorEnrolment } from '@/components/two-factor/enrolment';
import { RecoveryCodes } from '@/components/two-factor/recovery-codes';
import { PORTAL_ENROLMENT, PORTAL_PLACE } from '../../activar-verificacion/required-enrolment';
import { disablePortalTwoFactorAction, regeneratePortalRecoveryCodesAction } from './two-factor-actions';

const CODE_HINT = 'Los 6 dígitos de la aplicación o uno de tus códigos de recuperación.';

/** "Verificación en dos pasos" in the portal's "Mi cuenta": enrolment, the codes left, new ones, turning it off where allowed. */
export function PortalTwoFactorSection({ enrolled, recoveryCodesLeft, required }: { enrolled: boolean; recoveryCodesLeft: number; required: boolean }) {
  const router = useRouter();
  // Confirming replaces the session cookie and Next renders the page again with `enrolled` true:
  // the enrolment stays on screen, with its recovery codes, until the person says they saved them.
  const [enrolling, setEnrolling] = useState(false);
  if (!enrolled || enrolling) {
    return (
      <>
        {!enrolled && (
          <p className="small muted">
            {required
              ? 'Es obligatoria para tu rol.'
              : 'Opcional: además de la contraseña, el portal te pedirá un código que cambia cada 30 segundos en tu teléfono.'}
          </p>
        )}
        <TwoFactorEnrolment
          actions={PORTAL_ENROLMENT}
          place={PORTAL_PLACE}
          doneLabel="Listo, ya los guardé"
          onStarted={() => setEnrolling(true)}
          onDone={() => {
            setEnrolling(false);
            router.refresh();
          }}
        />
      </>
    );
  }
  return (
    <div className="two-factor">
      <p>
        <span className="badge" data-testid="two-factor-state">
          Activada
        </span>{' '}
        <span data-testid="recovery-codes-left">
          {recoveryCodesLeft === 1 ? 'Te queda 1 código de recuperación.' : `Te quedan ${recoveryCodesLeft} códigos de recuperación.`}
        </span>
      </p>
      {recoveryCodesLeft <= 3 && (
        <p className="notice info" role="status">
          Te quedan pocos códigos de recuperación: genera códigos nuevos y guárdalos.
        </p>
      )}
      <h3>Generar códigos de recuperación nuevos</h3>
      <p className="small muted">Los códigos anteriores dejan de servir, también los que no usaste.</p>
      <ActionForm
        action={regeneratePortalRecoveryCodesAction}
        submitLabel="Generar códigos nuevos"
        pendingLabel="Generando…"
        submitClassName="secondary"
        resetOnSuccess
        renderSuccess={(data) => <RecoveryCodes codes={data.recoveryCodes} />}
      >
        <Field name="codigo" label="Código de verificación" hint={CODE_HINT} autoComplete="one-time-code" />
      </ActionForm>
      {!required && (
        <>
          <h3>Desactivar la verificación en dos pasos</h3>
          <p className="small muted">Volverás a entrar solo con la contraseña.</p>
          <ActionForm action={disablePortalTwoFactorAction} submitLabel="Desactivar" pendingLabel="Desactivando…" submitClassName="danger secondary" onSuccess={() => router.refresh()}>
            <Field name="codigo" label="Código de verificación para desactivar" hint={CODE_HINT} autoComplete="one-time-code" />
          </ActionForm>
        </>
      )}
    </div>
  );
}
