'use client';

import { useActionState } from 'react';
import { acceptInvitationAction, type AcceptanceState } from './actions';

// Each error once: a field's beside the field (announced there), the link's or the server's in the
// notice under the button; never the same words in both.
function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p className="error" id={id} role="alert">
      {message}
    </p>
  ) : null;
}

/** Name and password for a new portal account; the link's code travels as a hidden field. */
export function AcceptanceForm({ code, email, minLength }: { code: string; email: string; minLength: number }) {
  const [state, action, pending] = useActionState(acceptInvitationAction, { error: null, fieldErrors: {}, name: '' } satisfies AcceptanceState);
  return (
    <form className="stack" action={action}>
      <input type="hidden" name="codigo" value={code} />
      {/* For password managers: the account the new password belongs to. */}
      <input type="hidden" name="email" autoComplete="username" value={email} />
      <div className="field">
        <label htmlFor="nombre">Su nombre</label>
        <input id="nombre" name="nombre" autoComplete="name" required maxLength={120} defaultValue={state.name} aria-invalid={Boolean(state.fieldErrors.nombre)} aria-describedby={state.fieldErrors.nombre ? 'nombre-error' : undefined} />
        <FieldError id="nombre-error" message={state.fieldErrors.nombre} />
      </div>
      <div className="field">
        <label htmlFor="clave">Contraseña</label>
        <input
          id="clave"
          name="clave"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          aria-invalid={Boolean(state.fieldErrors.clave)}
          aria-describedby={state.fieldErrors.clave ? 'clave-hint clave-error' : 'clave-hint'}
        />
        <p className="hint" id="clave-hint">
          Al menos {minLength} caracteres; mejor una frase de varias palabras que no tenga que ver con usted ni con el servicio.
        </p>
        <FieldError id="clave-error" message={state.fieldErrors.clave} />
      </div>
      <div className="field">
        <label htmlFor="repetida">Repita la contraseña</label>
        <input id="repetida" name="repetida" type="password" autoComplete="new-password" required aria-invalid={Boolean(state.fieldErrors.repetida)} aria-describedby={state.fieldErrors.repetida ? 'repetida-error' : undefined} />
        <FieldError id="repetida-error" message={state.fieldErrors.repetida} />
      </div>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? 'Creando la cuenta…' : 'Crear mi cuenta'}
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
