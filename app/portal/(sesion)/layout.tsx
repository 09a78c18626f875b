import Link from 'next/link';
import { NavLinks } from '@/components/console/nav-links';
import { BILLING_READERS, BULK_JOB_READERS, CREDENTIAL_READERS, NOTIFICATION_MANAGERS, PORTAL_ROLE_LABELS, RECORD_READERS, TEAM_MANAGERS, TOP_UP_REPORTERS } from '@/lib/portal/roles';
import { requirePortalPage } from '@/lib/portal/session';
import { PortalSignOutButton } from '../sign-out-button';

// Every signed-in portal page sits under this layout: no portal session, no portal (a console
// session is none). Each page still checks the session and its own roles.
export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const user = await requirePortalPage();
  const items = [
    { href: '/portal', label: 'Inicio' },
    // Only the pages this role may open: a link to "Sin permiso" would be a link to nothing.
    ...(RECORD_READERS.includes(user.role) ? [{ href: '/portal/consultas', label: 'Consultas' }] : []),
    ...(BULK_JOB_READERS.includes(user.role)
      ? [
          { href: '/portal/lotes', label: 'Lotes' },
          // Its runs are jobs: who reads Lotes reads the lists that make them.
          { href: '/portal/vigilancia', label: 'Vigilancia' },
        ]
      : []),
    ...(BILLING_READERS.includes(user.role)
      ? [
          { href: '/portal/movimientos', label: 'Movimientos' },
          { href: '/portal/estados', label: 'Estados de cuenta' },
        ]
      : []),
    ...(TOP_UP_REPORTERS.includes(user.role) ? [{ href: '/portal/recargas', label: 'Recargas' }] : []),
    ...(CREDENTIAL_READERS.includes(user.role) ? [{ href: '/portal/credenciales', label: 'Credenciales' }] : []),
    ...(NOTIFICATION_MANAGERS.includes(user.role) ? [{ href: '/portal/notificaciones', label: 'Notificaciones' }] : []),
    ...(TEAM_MANAGERS.includes(user.role) ? [{ href: '/portal/equipo', label: 'Equipo' }] : []),
    { href: '/portal/cuenta', label: 'Mi cuenta' },
  ];
  return (
    <>
      <a className="skip-link" href="#contenido">
        Saltar al contenido
      </a>
      <header className="console-header">
        <Link href="/portal" className="console-brand">
          Portal · <span className="integration-name" data-testid="portal-integration">{user.integrationName}</span>
        </Link>
        <NavLinks items={items} label="Secciones del portal" home="/portal">
          <div className="console-user">
            <span data-testid="portal-user">{user.name}</span>
            <span className="role" data-testid="portal-role">
              {PORTAL_ROLE_LABELS[user.role]}
            </span>
            <PortalSignOutButton />
          </div>
        </NavLinks>
      </header>
      <main className="console-main" id="contenido" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
