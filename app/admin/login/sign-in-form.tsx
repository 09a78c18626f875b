'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { signInRefusalText } from '@/lib/surfaces/console/sign-in';

const UNEXPECTED = 'No se pudo iniciar sesión por un error inesperado. Espere un momento y vuelva a intentarlo.';

/** `returnTo`: the console page to open once signed in (already checked by the page: lib/flows/auth/return-path.ts). */
export function SignInForm({ returnTo }: { returnTo: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn('credentials', {
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
        redirect: false,
      });
      if (result?.ok && !result.error) {
        router.replace(returnTo);
        router.refresh();
        return;
      }
      // Refusals arrive as a code (lib/flows/auth/sign-in-errors.ts); only known codes have their own text.
      setError(signInRefusalText(result?.error) ?? UNEXPECTED);
    } catch {
      setError(UNEXPECTED);
    }
    setPending(false);
  }

  return (
    <form className="stack" onSubmit={submit}>
      <div className="field">
        <label htmlFor="email">Correo electrónico</label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
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
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
