'use client';

import { useState } from 'react';
import { signOutTo } from './sign-out';

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOutTo('/admin/login?motivo=salida');
      }}
    >
      {pending ? 'Saliendo…' : 'Cerrar sesión'}
    </button>
  );
}
