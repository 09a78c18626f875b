'use client';

import { useActionState } from 'react';
import { RETURN_PATH_PARAM } from '@/lib/surfaces/portal/return-path-param';
import { portalSignInAction, type SignInState } from './actions';

/** `returnTo`: the portal page to open once signed in (checked by the page, and again by the action). */
export function PortalSignInForm({ returnTo }: { returnTo?: string }) {
  const [state, action, pending] = useActionState(portalSignInAction, { error: null, email: '' } satisfies SignInState);
  return (
    <form className="stack" action={action}>
      {returnTo && <input type="hidden" name={RETURN_PATH_PARAM} value={returnTo} />}
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
