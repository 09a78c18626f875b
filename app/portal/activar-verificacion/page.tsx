import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { PORTAL_ROLE_LABELS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { portalRenderingAfterOwnAction } from '@/lib/surfaces/portal/sign-in';
import { env } from '@/lib/platform/settings/env';
import { PortalSignOutButton } from '../sign-out-button';
import { RequiredPortalEnrolment } from './required-enrolment';

export const metadata: Metadata = { title: 'Active la verificación en dos pasos' };

// Outside the signed-in layout on purpose: in production an owner or developer without two-factor
// sign-in reaches this page only, until enrolled (lib/flows/portal-identity/policy.ts).
export default async function PortalRequiredEnrolmentPage() {
  const user = await requirePortalPage(undefined, { allowPending: 'two_factor_enrolment' });
  if (user.pendingStep !== 'two_factor_enrolment' && !(await portalRenderingAfterOwnAction())) redirect('/portal/cuenta');
  return (
    <main className="login" id="contenido">
      <h1>Active la verificación en dos pasos</h1>
      <p>
        Hola, {user.name}. Como {PORTAL_ROLE_LABELS[user.role].toLowerCase()} de «{user.integrationName}» usted ve credenciales y consultas: además de la contraseña
        entra con un código de su teléfono. Actívela para usar el portal.
      </p>
      <div className="card">
        <RequiredPortalEnrolment serviceName={env().SERVICE_NAME} />
      </div>
      <PortalSignOutButton />
    </main>
  );
}
