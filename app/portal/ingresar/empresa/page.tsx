import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { companySignInRefusal } from '@/lib/surfaces/portal/company-sign-in';
import { currentPortalUser, portalLandingPath } from '@/lib/surfaces/portal/session';
import { CompanySignInForm } from './company-form';

export const metadata: Metadata = { title: 'Entrar con la cuenta de su empresa' };

export default async function CompanySignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const signedIn = await currentPortalUser();
  if (signedIn) redirect(portalLandingPath(signedIn.pendingStep));
  // Only our own codes become their text; anything else in the link gets one fixed sentence.
  const refusal = companySignInRefusal(params);
  return (
    <main className="login" id="contenido">
      <h1>Entrar con la cuenta de su empresa</h1>
      <p className="muted">Si su empresa conectó su proveedor de identidad (Microsoft Entra ID, Google Workspace, Okta…) al portal, escriba su correo de la empresa y continúe allí.</p>
      {refusal && (
        <p className="notice error" role="alert">
          {refusal}
        </p>
      )}
      <div className="card">
        <CompanySignInForm />
      </div>
      <p className="small links">
        <Link href="/portal/ingresar">Entrar con correo y contraseña</Link>
      </p>
    </main>
  );
}
