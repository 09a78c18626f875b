import Link from 'next/link';
import { NavLinks } from '@/components/console/nav-links';
import { portalNavItems } from '@/lib/surfaces/portal/navigation';
import { PORTAL_ROLE_LABELS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { PortalSignOutButton } from '../sign-out-button';

// Every signed-in portal page sits under this layout: no portal session, no portal (a console
// session is none). Each page still checks the session and its own roles.
export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const user = await requirePortalPage();
  const items = portalNavItems(user.role);
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
