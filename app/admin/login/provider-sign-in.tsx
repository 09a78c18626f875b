'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';

/** "Entrar con <proveedor>": the browser goes to the identity provider and comes back signed in (docs/sso.md). */
export function ProviderSignIn({ providerId, name, returnTo }: { providerId: string; name: string; returnTo: string }) {
  const [pending, setPending] = useState(false);
  return (
    <div className="actions">
      <button
        type="button"
        disabled={pending}
        onClick={() => {
          setPending(true);
          void signIn(providerId, { callbackUrl: returnTo });
        }}
      >
        {pending ? `Abriendo ${name}…` : `Entrar con ${name}`}
      </button>
    </div>
  );
}
