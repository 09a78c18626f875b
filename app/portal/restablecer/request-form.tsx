'use client';

import { useActionState } from 'react';
import { requestResetAction, type ResetRequestState } from './actions';

/** The same answer whether or not the address has an account (lib/flows/portal-identity/passwords.ts). */
const RESET_REQUESTED = 'Si ese correo es de una cuenta del portal, le enviamos un enlace para elegir una contraseña nueva. Vence en una hora.';

export function ResetRequestForm() {
  const [state, action, pending] = useActionState(requestResetAction, { sent: false, error: null } satisfies ResetRequestState);
  if (state.sent) {
    return (
      <p className="notice success" role="status">
        {RESET_REQUESTED}
      </p>
    );
  }
  return (
    <form className="stack" action={action}>
      <div className="field">
        <label htmlFor="email">Correo electrónico de su cuenta</label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
      </div>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? 'Enviando…' : 'Enviarme un enlace'}
        </button>
      </div>
      {state.error && (
        <p className="notice error" role="alert">
          {state.error}
        </p>
      )}
    </form>
  );
}
