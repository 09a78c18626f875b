import Link from 'next/link';
import { PageHeader } from '@/components/console/page-header';

// A watch list id the session's integration has no list with: unknown, deleted, or another
// integration's, all alike (the page never says which).
export default function PortalWatchListNotFound() {
  return (
    <>
      <PageHeader title="No existe esa vigilancia en su integración" back={{ href: '/portal/vigilancia', label: 'Vigilancia' }} />
      <div className="card" data-testid="watch-list-not-found">
        <p>Revise el id de la vigilancia: puede tener un error de copia, haberse eliminado o no ser de su integración.</p>
        <p>
          <Link href="/portal/vigilancia">Volver a Vigilancia</Link>
        </p>
      </div>
    </>
  );
}
