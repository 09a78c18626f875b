import type { Metadata } from 'next';
import Link from 'next/link';
import { PageHeader } from '@/components/console/page-header';
import { PORTAL_ROLE_LABELS } from '@/lib/portal/roles';
import { requirePortalPage } from '@/lib/portal/session';

export const metadata: Metadata = { title: 'Sin permiso' };

export default async function PortalForbiddenPage() {
  const user = await requirePortalPage();
  return (
    <>
      <PageHeader title="Esta página no es para tu rol" />
      <div className="card">
        <p>
          Tu rol en «{user.integrationName}» es {PORTAL_ROLE_LABELS[user.role].toLowerCase()}. Si necesitas esta página, pide a un propietario de tu integración
          que cambie tu rol.
        </p>
        <p>
          <Link href="/portal">Volver a Inicio</Link>
        </p>
      </div>
    </>
  );
}
