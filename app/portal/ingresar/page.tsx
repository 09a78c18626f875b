import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { currentPortalUser, portalLandingPath } from '@/lib/surfaces/portal/session';
import { portalReturnPath } from '@/lib/surfaces/portal/sign-in';
import { PortalSignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Iniciar sesión' };

const REASONS: Record<string, { tone: 'info' | 'success'; text: string }> = {
  sesion: { tone: 'info', text: 'Su sesión terminó: vuelva a iniciar sesión.' },
  salida: { tone: 'success', text: 'Cerró sesión. Hasta pronto.' },
  'clave-cambiada': { tone: 'success', text: 'Contraseña cambiada. Inicie sesión con la nueva contraseña.' },
  'clave-restablecida': { tone: 'success', text: 'Contraseña restablecida. Inicie sesión con la nueva contraseña.' },
};

export default async function PortalSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // Only a portal page of this site, never a link elsewhere (lib/flows/auth/return-path.ts).
  const returnTo = portalReturnPath(params);
  const signedIn = await currentPortalUser();
  if (signedIn) redirect(portalLandingPath(signedIn.pendingStep, returnTo));
  const motivo = params.motivo;
  const reason = typeof motivo === 'string' && Object.hasOwn(REASONS, motivo) ? REASONS[motivo] : undefined;
  return (
    <main className="login" id="contenido">
      <h1>Portal de integradores</h1>
      <p className="muted">Para las personas de cada integración: su saldo, sus consultas, sus estados de cuenta y su equipo.</p>
      {reason && (
        <p className={`notice ${reason.tone}`} role="status">
          {reason.text}
        </p>
      )}
      <div className="card">
        <PortalSignInForm returnTo={returnTo} />
      </div>
      <p className="small links">
        <Link href="/portal/ingresar/empresa">Entrar con la cuenta de su empresa</Link> · <Link href="/portal/restablecer">¿Olvidó su contraseña?</Link>
      </p>
      <p className="small muted">
        ¿Todavía no tiene cuenta? Se entra con la invitación que le envía un propietario de su integración o el equipo del servicio.
      </p>
    </main>
  );
}
