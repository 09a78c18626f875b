'use client';

import { useActionState } from 'react';
import { portalSignInAction, type SignInState } from './actions';

export function PortalSignInForm() {
  const [state, action, pending] = useActionState(portalSignInAction, { error: null, email: '' } satisfies SignInState);
  return (
    <form className="stack" action={action}>
      <div className="field">
        <label htmlFor="email">Correo electrónico</label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus defaultValue={state.email} />
      </div>
      <div className="field">
        <label htmlFor="password">Contraseña</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? 'Entrando…' : 'Iniciar sesión'}
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
