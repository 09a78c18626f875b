import Link from 'next/link';
import { PageHeader } from '@/components/console/page-header';

// Shown with status 404 when a console page is asked for an id that does not exist.
export default function ConsoleNotFound() {
  return (
    <>
      <PageHeader title="No encontramos esta página" />
      <div className="card">
        <p>La integración, la consulta o la página que buscas no existe, o el enlace está incompleto.</p>
        <p>
          Vuelva a <Link href="/admin/integraciones">Integraciones</Link>, a los <Link href="/admin/registros">Registros de consultas</Link> o al{' '}
          <Link href="/admin">Panel</Link>.
        </p>
      </div>
    </>
  );
}
