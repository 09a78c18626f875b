import Link from 'next/link';
import { PageHeader } from '@/components/console/page-header';

// An invoice id the session's integration has no invoice with: unknown or another integration's,
// alike (the page never says which).
export default function PortalInvoiceNotFound() {
  return (
    <>
      <PageHeader title="No existe esa factura en su integración" back={{ href: '/portal/facturas', label: 'Facturas' }} />
      <div className="card" data-testid="invoice-not-found">
        <p>Revise el enlace: puede tener un error de copia o no ser de su integración.</p>
        <p>
          <Link href="/portal/facturas">Volver a Facturas</Link>
        </p>
      </div>
    </>
  );
}
