import type { Metadata } from 'next';
import Link from 'next/link';
import { EmailAddress } from '@/components/email-address';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { portalInvitationLink } from '@/lib/surfaces/portal/links';
import { PORTAL_ROLE_DESCRIPTIONS, PORTAL_ROLE_LABELS } from '@/lib/surfaces/portal/page-access';
import { MIN_PASSWORD_LENGTH } from '@/lib/platform/security/passwords';
import { ForgetLinkCode } from '../forget-link-code';
import { AcceptanceForm } from './acceptance-form';

export const metadata: Metadata = { title: 'Aceptar la invitación' };

// The page an invitation's link opens. Opening it uses nothing (a mail scanner that fetches the
// link spends nothing): it says who is invited where, and the form posts the code, once.
export default async function InvitationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const invitation = await portalInvitationLink(await searchParams);
  return (
    <main className="login" id="contenido">
      <ForgetLinkCode />
      <h1>Invitación al portal de integradores</h1>
      {invitation.state === 'valid' ? (
        <>
          <p>
            Le invitaron como <strong>{PORTAL_ROLE_LABELS[invitation.role].toLowerCase()}</strong> de la integración <strong>«{invitation.integrationName}»</strong> ({PORTAL_ROLE_DESCRIPTIONS[invitation.role]}).
          </p>
          <p className="small muted">
            Su cuenta será <EmailAddress email={invitation.email} className="mono" />. La invitación vence el {formatDateTime(invitation.expiresAt)}.
          </p>
          <div className="card">
            <AcceptanceForm code={invitation.code} email={invitation.email} minLength={MIN_PASSWORD_LENGTH} />
          </div>
        </>
      ) : (
        <>
          <p className="notice error" role="alert">
            {invitation.message}
          </p>
          <p className="small">
            ¿Ya tiene cuenta? <Link href="/portal/ingresar">Inicie sesión</Link>.
          </p>
        </>
      )}
    </main>
  );
}
