import Link from 'next/link';
import { PageHeader } from '@/components/console/page-header';

// A job id the session's integration has no job with: unknown, deleted with its results, or another
// integration's, all alike (the page never says which).
export default function PortalBulkJobNotFound() {
  return (
    <>
      <PageHeader title="No existe ese lote en su integración" back={{ href: '/portal/lotes', label: 'Lotes' }} />
      <div className="card" data-testid="bulk-job-not-found">
        <p>Revise el id del lote: puede tener un error de copia, ser de un lote cuyos resultados ya se borraron o no ser de su integración.</p>
        <p>
          <Link href="/portal/lotes">Volver a Lotes</Link>
        </p>
      </div>
    </>
  );
}
