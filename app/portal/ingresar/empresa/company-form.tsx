'use client';

import { useActionState } from 'react';
import { companySignInAction, type CompanySignInState } from './actions';

export function CompanySignInForm() {
  const [state, action, pending] = useActionState(companySignInAction, { error: null, email: '' } satisfies CompanySignInState);
  return (
    <form className="stack" action={action}>
      <div className="field">
        <label htmlFor="company-email">Correo electrónico de la empresa</label>
        <input id="company-email" name="email" type="email" autoComplete="username" required autoFocus defaultValue={state.email} />
      </div>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? 'Abriendo el proveedor de su empresa…' : 'Continuar con la cuenta de mi empresa'}
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
