import type { Metadata } from 'next';
import { connection } from 'next/server';
import { env } from '@/lib/platform/settings/env';
import '@/components/console/console.css';

export const metadata: Metadata = {
  title: { default: 'Consola', template: '%s · Consola de consultas' },
  robots: { index: false, follow: false },
};

// The console layout (signed in or not): the development banner and the console's styles.
export default async function AdminRootLayout({ children }: { children: React.ReactNode }) {
  // Rendered per request: the console reads the database and the environment, never at build time.
  await connection();
  const development = env().APP_ENV === 'development';
  return (
    <div className="console">
      {development && (
        <div className="dev-banner" role="note">
          <strong>Entorno de desarrollo</strong> · datos de prueba y fuentes simuladas; nada de lo que haga aquí afecta a producción.
        </div>
      )}
      {children}
    </div>
  );
}
