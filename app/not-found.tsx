import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Página no encontrada' };

// Any address the app does not serve answers 404 with this page, in Spanish.
export default function NotFound() {
  return (
    <main className="landing">
      <h1>No encontramos esta página</h1>
      <p>La dirección no existe o el enlace está incompleto.</p>
      <p>
        Ve a la <Link href="/admin">consola</Link> o a la <Link href="/docs">documentación de la API</Link>.
      </p>
    </main>
  );
}
