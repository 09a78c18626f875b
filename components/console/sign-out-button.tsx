'use client';

import { signOut } from 'next-auth/react';
import { useState } from 'react';

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: '/admin/login?motivo=salida' });
      }}
    >
      {pending ? 'Saliendo…' : 'Cerrar sesión'}
    </button>
  );
}
