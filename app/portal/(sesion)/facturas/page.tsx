import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { creditNoteName, INVOICE_STANDING_TONES, invoiceNumberCell, invoiceStanding, PORTAL_INVOICE_STANDING_LABELS } from '@/lib/presentation/invoice-labels';
import { PORTAL_INVOICE_LIMIT, portalInvoices } from '@/lib/surfaces/portal/invoices';
import { requirePortalPage } from '@/lib/surfaces/portal/session';

export const metadata: Metadata = { title: 'Facturas' };

// Facturas: the FEL invoice of each of the session's integration's credited top-ups, newest first;
// each opens its page, with SAT's verification link and the XML and PDF to download.
export default async function PortalInvoicesPage() {
  const user = await requirePortalPage(BILLING_READERS);
  const rows = await portalInvoices(user);
  return (
    <>
      <PageHeader
        title="Facturas"
        description="La factura electrónica (FEL) de cada recarga acreditada, certificada ante SAT a nombre del receptor de sus datos de facturación (o consumidor final, si no hay)."
      />
      <p>
        <Link href="/portal/facturas/datos" data-testid="billing-data-link">
          Datos de facturación
        </Link>
        : a quién nombran sus facturas (NIT o CUI).
      </p>
      <div className="card">
        {rows.length === 0 ? (
          <EmptyState title="Todavía no hay facturas de su integración." />
        ) : (
          <div className="table-wrap" role="region" aria-label="Facturas" tabIndex={0}>
            <table className="data stacked" data-testid="portal-invoices">
              <thead>
                <tr>
                  <th>Fecha</th>
                  <th>Serie y número</th>
                  <th>Estado</th>
                  <th className="num">Total</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id} data-testid="portal-invoice">
                    <td className="nowrap" data-label="Fecha">
                      {formatDateTime(row.createdAt)}
                    </td>
                    <td data-label="Serie y número">
                      <Link href={`/portal/facturas/${row.id}`}>{invoiceNumberCell(row)}</Link>
                    </td>
                    <td data-label="Estado">
                      <span className={`badge ${INVOICE_STANDING_TONES[invoiceStanding(row)]}`}>{PORTAL_INVOICE_STANDING_LABELS[invoiceStanding(row)]}</span>
                      {row.creditNote && <span className="small">{` ${creditNoteName(row.creditNote)}`}</span>}
                    </td>
                    <td className="num" data-label="Total">
                      {formatQuetzales(row.totalCentavos)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="small muted">
          {`Se muestran las ${PORTAL_INVOICE_LIMIT} más recientes. Una factura en trámite se certifica en minutos; cada estado de cuenta mensual lista las facturas de las recargas de su mes.`}
        </p>
      </div>
    </>
  );
}
