'use client';

import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import type { ActionResult } from '@/lib/flows/auth/action';
import { RecoveryCodes } from './recovery-codes';

/** The secret as people type it: groups of four letters (authenticator apps ignore the spaces). */
function grouped(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/** Where the enrolment happens, for its words: the console or the portal. */
export interface TwoFactorPlace {
  /** "la consola", "el portal": who asks for the code. */
  product: string;
  /** "de la consola", "del portal": whose account the app adds. */
  account: string;
}

export interface EnrolmentActions {
  start: (input: unknown) => Promise<ActionResult<{ secret: string; qrSvg: string }>>;
  confirm: (input: unknown) => Promise<ActionResult<{ recoveryCodes: string[] }>>;
}

/**
 * Enrolment in three steps: a new secret (QR code and text), a code from the app to confirm it,
 * then the recovery codes, shown once. `onStarted` runs when the secret is shown, `onDone` when the
 * user has saved the codes. The console and the portal pass their own actions.
 */
export function TwoFactorEnrolment({
  actions,
  place,
  doneLabel,
  serviceName,
  onStarted,
  onDone,
}: {
  actions: EnrolmentActions;
  place: TwoFactorPlace;
  /** The service's name (SERVICE_NAME), for the recovery codes' file. */
  serviceName: string;
  doneLabel: string;
  onStarted?: () => void;
  onDone: () => void;
}) {
  const [enrolment, setEnrolment] = useState<{ secret: string; qrSvg: string } | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (recoveryCodes) {
    return (
      <div className="two-factor">
        <p className="notice success" role="status">
          Verificación en dos pasos activada. Desde ahora, al iniciar sesión {place.product} le pedirá el código de la aplicación.
        </p>
        <RecoveryCodes codes={recoveryCodes} serviceName={serviceName} product={place.product} />
        <div className="actions">
          <button type="button" onClick={onDone}>
            {doneLabel}
          </button>
        </div>
      </div>
    );
  }

  if (!enrolment) {
    return (
      <ActionForm
        action={actions.start}
        submitLabel="Activar verificación en dos pasos"
        pendingLabel="Preparando…"
        onSuccess={(started) => {
          setEnrolment(started);
          onStarted?.();
        }}
      >
        <p className="small">
          Necesita una aplicación de autenticación en su teléfono (Google Authenticator, Microsoft Authenticator, 1Password u otra compatible).
        </p>
      </ActionForm>
    );
  }

  return (
    <div className="two-factor">
      <p>
        <strong>1.</strong> En la aplicación, agregue una cuenta y escanee este código QR:
      </p>
      <div className="qr-code" role="img" aria-label={`Código QR para agregar su cuenta ${place.account} a la aplicación`} dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
      <p className="small">
        ¿No puede escanearlo? Elija «Ingresar una clave» en la aplicación y escriba esta clave (basada en tiempo):{' '}
        <code className="mono break-anywhere" data-testid="two-factor-secret">
          {grouped(enrolment.secret)}
        </code>
      </p>
      <p>
        <strong>2.</strong> Escriba el código de 6 dígitos que muestra ahora la aplicación:
      </p>
      <ActionForm action={actions.confirm} submitLabel="Confirmar y activar" pendingLabel="Comprobando…" onSuccess={(data) => setRecoveryCodes(data.recoveryCodes)}>
        <Field name="codigo" label="Código de la aplicación" autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]*" maxLength={7} required />
      </ActionForm>
    </div>
  );
}
