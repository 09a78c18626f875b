import Link from 'next/link';
import { PageHeader } from '@/components/console/page-header';

// A request id no record of the session's integration has: unknown, purged, or another
// integration's, all alike (the page never says which).
export default function PortalRecordNotFound() {
  return (
    <>
      <PageHeader title="No existe esa consulta en su integración" back={{ href: '/portal/consultas', label: 'Consultas' }} />
      <div className="card" data-testid="record-not-found">
        <p>Revise el id de solicitud: puede tener un error de copia, ser de una consulta que ya se depuró por antigüedad o no ser de su integración.</p>
        <p>
          <Link href="/portal/consultas">Volver a Consultas</Link>
        </p>
      </div>
    </>
  );
}
