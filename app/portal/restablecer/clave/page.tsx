import type { Metadata } from 'next';
import Link from 'next/link';
import { LINK_CODE_PARAM } from '@/lib/flows/portal-identity/links';
import { PASSWORD_MESSAGES, passwordResetForCode } from '@/lib/flows/portal-identity/passwords';
import { MIN_PASSWORD_LENGTH } from '@/lib/platform/security/passwords';
import { ForgetLinkCode } from '../../forget-link-code';
import { NewPasswordForm } from './new-password-form';

export const metadata: Metadata = { title: 'Elegir una contraseña nueva' };

// The page a reset link opens: reading it uses nothing; the form posts the code, once.
export default async function PortalNewPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const code = (await searchParams)[LINK_CODE_PARAM];
  const reset = await passwordResetForCode(code);
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
            <NewPasswordForm code={code as string} email={reset.email} minLength={MIN_PASSWORD_LENGTH} />
          </div>
        </>
      ) : (
        <p className="notice error" role="alert">
          {reset.state === 'expired' ? PASSWORD_MESSAGES.linkExpired : PASSWORD_MESSAGES.linkUnusable}
        </p>
      )}
      <p className="small">
        <Link href="/portal/ingresar">Volver a iniciar sesión</Link>
      </p>
    </main>
  );
}
