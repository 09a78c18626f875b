'use client';

import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { RecoveryCodes } from './recovery-codes';
import { confirmTwoFactorEnrolmentAction, startTwoFactorEnrolmentAction } from './two-factor-actions';

/** The secret as people type it: groups of four letters (authenticator apps ignore the spaces). */
function grouped(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/**
 * Enrolment in three steps: a new secret (QR code and text), a code from the app to confirm it,
 * then the recovery codes, shown once. `onStarted` runs when the secret is shown, `onDone` when the
 * user has saved the codes.
 */
export function TwoFactorEnrolment({ doneLabel, onStarted, onDone }: { doneLabel: string; onStarted?: () => void; onDone: () => void }) {
  const [enrolment, setEnrolment] = useState<{ secret: string; qrSvg: string } | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (recoveryCodes) {
    return (
      <div className="two-factor">
        <p className="notice success" role="status">
          Verificación en dos pasos activada. Desde ahora, al iniciar sesión la consola te pedirá el código de la aplicación.
        </p>
        <RecoveryCodes codes={recoveryCodes} />
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
        action={startTwoFactorEnrolmentAction}
        submitLabel="Activar verificación en dos pasos"
        pendingLabel="Preparando…"
        onSuccess={(started) => {
          setEnrolment(started);
          onStarted?.();
        }}
      >
        <p className="small">
          Necesitas una aplicación de autenticación en tu teléfono (Google Authenticator, Microsoft Authenticator, 1Password u otra compatible).
        </p>
      </ActionForm>
    );
  }

  return (
    <div className="two-factor">
      <p>
        <strong>1.</strong> En la aplicación, agrega una cuenta y escanea este código QR:
      </p>
      <div className="qr-code" role="img" aria-label="Código QR para agregar tu cuenta de la consola a la aplicación" dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
      <p className="small">
        ¿No puedes escanearlo? Elige «Ingresar una clave» en la aplicación y escribe esta clave (basada en tiempo):{' '}
        <code className="mono break-anywhere" data-testid="two-factor-secret">
          {grouped(enrolment.secret)}
        </code>
      </p>
      <p>
        <strong>2.</strong> Escribe el código de 6 dígitos que muestra ahora la aplicación:
      </p>
      <ActionForm action={confirmTwoFactorEnrolmentAction} submitLabel="Confirmar y activar" pendingLabel="Comprobando…" onSuccess={(data) => setRecoveryCodes(data.recoveryCodes)}>
        <Field name="codigo" label="Código de la aplicación" autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]*" maxLength={7} required />
      </ActionForm>
    </div>
  );
}
