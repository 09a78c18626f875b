import type { Metadata } from 'next';
import Link from 'next/link';
import { portalPasswordResetLink } from '@/lib/surfaces/portal/links';
import { MIN_PASSWORD_LENGTH } from '@/lib/platform/security/passwords';
import { ForgetLinkCode } from '../../forget-link-code';
import { NewPasswordForm } from './new-password-form';

export const metadata: Metadata = { title: 'Elegir una contraseña nueva' };

// The page a reset link opens: reading it uses nothing; the form posts the code, once.
export default async function PortalNewPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const reset = await portalPasswordResetLink(await searchParams);
  return (
    <main className="login" id="contenido">
      <ForgetLinkCode />
      <h1>Elegir una contraseña nueva</h1>
      {reset.state === 'valid' ? (
        <>
          <p>
            Cuenta: <span className="mono break-anywhere">{reset.email}</span>. Al guardarla se cierran todas sus sesiones abiertas.
          </p>
          <div className="card">
            <NewPasswordForm code={reset.code} email={reset.email} minLength={MIN_PASSWORD_LENGTH} />
          </div>
        </>
      ) : (
        <p className="notice error" role="alert">
          {reset.message}
        </p>
      )}
      <p className="small">
        <Link href="/portal/ingresar">Volver a iniciar sesión</Link>
      </p>
    </main>
  );
}
