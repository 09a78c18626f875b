import Link from 'next/link';
import { NavLinks } from '@/components/console/nav-links';
import { SignOutButton } from '@/components/console/sign-out-button';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { ROLE_LABELS } from '@/lib/presentation/labels';
import { consoleMenu } from '@/lib/surfaces/console/layout';

// Every console page sits under this layout: no valid session, no console. Each page still checks
// the session and its own role (layouts are not re-run on every navigation).
export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requirePageUser();
  const items = await consoleMenu(user);
  return (
    <>
      {/* The first stop of the keyboard: past the navigation, straight to the page. */}
      <a className="skip-link" href="#contenido">
        Saltar al contenido
      </a>
      <header className="console-header">
        <Link href="/admin" className="console-brand">
          Consultas GT · Consola
        </Link>
        <NavLinks items={items}>
          <div className="console-user">
            {/* Named for what it opens, not only by the user's name. */}
            <Link href="/admin/cuenta" data-testid="my-account">
              {`Mi cuenta (${user.name})`}
            </Link>
            <span className="role" data-testid="current-role">
              {ROLE_LABELS[user.role]}
            </span>
            <SignOutButton />
          </div>
        </NavLinks>
      </header>
      <main className="console-main" id="contenido" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
