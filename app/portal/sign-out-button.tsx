'use client';

import { useFormStatus } from 'react-dom';
import { portalSignOutAction } from './session-actions';

function SubmitButton() {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={pending}>
      {pending ? 'Saliendo…' : 'Cerrar sesión'}
    </button>
  );
}

/** A form, so that signing out works before the page's scripts have loaded too. */
export function PortalSignOutButton() {
  return (
    <form action={portalSignOutAction} className="inline-form">
      <SubmitButton />
    </form>
  );
}
