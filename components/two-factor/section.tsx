'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import type { ActionResult } from '@/lib/flows/auth/action';
import { TwoFactorEnrolment, type EnrolmentActions, type TwoFactorPlace } from './enrolment';
import { RecoveryCodes } from './recovery-codes';

/** A realm's own two-factor actions ("Mi cuenta"), each checking the signed-in user of that realm. */
export interface TwoFactorActions extends EnrolmentActions {
  regenerate: (input: unknown) => Promise<ActionResult<{ recoveryCodes: string[] }>>;
  disable: (input: unknown) => Promise<ActionResult<undefined>>;
}

interface TwoFactorSectionProps {
  enrolled: boolean;
  recoveryCodesLeft: number;
  /** Required of this user (a console administrator or a portal owner, in production): it cannot be turned off. */
  required: boolean;
  /** Said to a user who must enrol: who it is required of ("Es obligatoria para su rol."). */
  requiredNote: string;
  actions: TwoFactorActions;
  place: TwoFactorPlace;
  /** The service's name (SERVICE_NAME), for the recovery codes' file. */
  serviceName: string;
}

const CODE_HINT = 'Los 6 dígitos de la aplicación o uno de sus códigos de recuperación.';

/**
 * "Verificación en dos pasos" in "Mi cuenta", the console's and the portal's: enrolment, the
 * recovery codes left, new ones, turning it off where it is not required.
 */
export function TwoFactorSection({ enrolled, recoveryCodesLeft, required, requiredNote, actions, place, serviceName }: TwoFactorSectionProps) {
  const router = useRouter();
  // Confirming the enrolment replaces the session cookie, and Next renders this page again in the
  // action's answer with `enrolled` already true: the enrolment stays on screen, with the recovery
  // codes it shows once, until the person says they saved them.
  // `enrolling` is set when the enrolment starts, before any cookie changes.
  const [enrolling, setEnrolling] = useState(false);
  if (!enrolled || enrolling) {
    return (
      <>
        {!enrolled && (
          <p className="small muted">
            {required ? requiredNote : `Opcional: además de la contraseña, ${place.product} le pedirá un código que cambia cada 30 segundos en su teléfono.`}
          </p>
        )}
        <TwoFactorEnrolment
          actions={actions}
          place={place}
          serviceName={serviceName}
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
          {recoveryCodesLeft === 1 ? 'Le queda 1 código de recuperación.' : `Le quedan ${recoveryCodesLeft} códigos de recuperación.`}
        </span>
      </p>
      {recoveryCodesLeft <= 3 && (
        <p className="notice info" role="status">
          Le quedan pocos códigos de recuperación: genere códigos nuevos y guárdelos.
        </p>
      )}
      <h3>Generar códigos de recuperación nuevos</h3>
      <p className="small muted">Los códigos anteriores dejan de servir, también los que no usó.</p>
      <ActionForm
        action={actions.regenerate}
        submitLabel="Generar códigos nuevos"
        pendingLabel="Generando…"
        submitClassName="secondary"
        resetOnSuccess
        // The new codes are shown once: they stay while they are copied, whatever else is done.
        successStays
        renderSuccess={(data) => <RecoveryCodes codes={data.recoveryCodes} serviceName={serviceName} product={place.product} />}
      >
        <Field name="codigo" label="Código de verificación" hint={CODE_HINT} autoComplete="one-time-code" />
      </ActionForm>
      {!required && (
        <>
          <h3>Desactivar la verificación en dos pasos</h3>
          <p className="small muted">Volverás a entrar solo con la contraseña.</p>
          <ActionForm action={actions.disable} submitLabel="Desactivar" pendingLabel="Desactivando…" submitClassName="danger secondary" onSuccess={() => router.refresh()}>
            <Field name="codigo" label="Código de verificación para desactivar" hint={CODE_HINT} autoComplete="one-time-code" />
          </ActionForm>
        </>
      )}
    </div>
  );
}
