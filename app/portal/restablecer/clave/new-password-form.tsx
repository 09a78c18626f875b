'use client';

import { useActionState } from 'react';
import { completeResetAction, type NewPasswordState } from '../actions';

export function NewPasswordForm({ code, email, minLength }: { code: string; email: string; minLength: number }) {
  const [state, action, pending] = useActionState(completeResetAction, { error: null, fieldErrors: {} } satisfies NewPasswordState);
  return (
    <form className="stack" action={action}>
      <input type="hidden" name="codigo" value={code} />
      <input type="hidden" name="email" autoComplete="username" value={email} />
      <div className="field">
        <label htmlFor="clave">Nueva contraseña</label>
        <input id="clave" name="clave" type="password" autoComplete="new-password" required minLength={minLength} aria-invalid={Boolean(state.fieldErrors.clave)} aria-describedby={state.fieldErrors.clave ? 'clave-hint clave-error' : 'clave-hint'} />
        <p className="hint" id="clave-hint">
          Al menos {minLength} caracteres; mejor una frase de varias palabras.
        </p>
        {state.fieldErrors.clave && (
          <p className="error" id="clave-error">
            {state.fieldErrors.clave}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="repetida">Repita la nueva contraseña</label>
        <input id="repetida" name="repetida" type="password" autoComplete="new-password" required aria-invalid={Boolean(state.fieldErrors.repetida)} aria-describedby={state.fieldErrors.repetida ? 'repetida-error' : undefined} />
        {state.fieldErrors.repetida && (
          <p className="error" id="repetida-error">
            {state.fieldErrors.repetida}
          </p>
        )}
      </div>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? 'Guardando…' : 'Guardar la contraseña'}
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
