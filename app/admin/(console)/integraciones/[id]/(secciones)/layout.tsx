import Link from 'next/link';
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/console/page-header';
import { ActiveBadge } from '@/components/console/status-badge';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { integrationOrNotFound } from '../integration';
import { IntegrationSectionNav } from '../section-nav';

/**
 * What every section of an integration shares: who it is (name, legal name, state) and the
 * sections. Each section is a page of its own and reads only what it shows; each checks the
 * session and the role itself (a layout is not re-run when the user moves between sections).
 * No loading.tsx here: a Suspense boundary would send its 200 before an unknown id could answer 404.
 */
export default async function IntegrationSectionsLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const user = await requirePageUser('support');
  const integration = await integrationOrNotFound((await params).id);
  return (
    <>
      <PageHeader
        title={integration.nombre}
        back={{ href: '/admin/integraciones', label: 'Integraciones' }}
        description={
          <>
            <span data-testid="header-legal-name">{integration.legalName ?? 'Sin razón social registrada'}</span> ·{' '}
            <span data-testid="header-state">
              <ActiveBadge active={integration.active} />
            </span>{' '}
            · creada el {formatDateTime(integration.createdAt)}
          </>
        }
        actions={
          <Link className="button secondary" href={`/admin/registros?integracion=${integration.id}`}>
            Ver sus consultas
          </Link>
        }
      />
      {user.role !== 'admin' && <p className="notice info">Está en modo de solo lectura (rol soporte): los cambios los hace un administrador.</p>}
      <IntegrationSectionNav integrationId={integration.id} />
      {children}
    </>
  );
}
