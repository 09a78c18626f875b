import type { Metadata } from 'next';
import { connection } from 'next/server';
import { env } from '@/lib/platform/settings/env';
import '@/components/console/console.css';
import './portal.css';

export const metadata: Metadata = {
  title: { default: 'Portal de integradores', template: '%s · Portal de integradores' },
  robots: { index: false, follow: false },
};

// The portal (signed in or not): the console's look with its own header colour, and in the
// development deployment the banner that says this is the integrator's sandbox.
export default async function PortalRootLayout({ children }: { children: React.ReactNode }) {
  // Rendered per request: the portal reads the database and the environment, never at build time.
  await connection();
  const sandbox = env().APP_ENV === 'development';
  return (
    <div className="console portal">
      {sandbox && (
        <div className="dev-banner sandbox-banner" role="note" data-testid="sandbox-banner">
          {/* A phone gets the name alone, on one line: the whole sentence took three above every page. */}
          <span className="sandbox-long">
            <strong>Entorno de pruebas (sandbox)</strong> · sus consultas van al simulador de las fuentes, con datos ficticios; nada de lo que haga aquí
            afecta a producción.
          </span>
          <span className="sandbox-short">
            <strong>Entorno de pruebas (sandbox)</strong>
          </span>
        </div>
      )}
      {children}
    </div>
  );
}
