import type { Metadata } from 'next';
import Link from 'next/link';
import { FilterForm, FilterSelect } from '@/components/console/filter-form';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { creditNoteName, INVOICE_PAGE_MESSAGES, invoiceNumberCell, INVOICE_STANDING_LABELS, INVOICE_STANDINGS } from '@/lib/presentation/invoice-labels';
import { InvoicingStoppedBanner } from '@/components/invoices/certifier-status';
import { invoiceFilters, invoicePage, invoicesToCorrect, invoicingStatus } from '@/lib/surfaces/console/invoices';
import { InvoiceStateBadge } from '../state-badge';

export const metadata: Metadata = { title: 'Facturas' };

// Facturas: every FEL invoice of a credited top-up, the latest first, by state and by month
// (Guatemala's calendar). Administrators and support read them; each opens its page.
export default async function InvoicesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('support');
  const query = await searchParams;
  const filters = invoiceFilters(query);
  const after = typeof query.despues === 'string' ? query.despues : undefined;
  const page = await invoicePage(filters, after);
  const toCorrect = await invoicesToCorrect();
  const { invoicing, certifier } = await invoicingStatus();
  // "Por corregir" is this list filtered by that state, with the certifier's message beside each.
  const correcting = filters.state === 'to_correct';
  const applied = new URLSearchParams();
  if (filters.state) applied.set('estado', filters.state);
  if (filters.month) applied.set('mes', filters.month);
  const firstPage = applied.size > 0 ? `/admin/facturas?${applied}` : '/admin/facturas';
  return (
    <>
      <PageHeader
        title="Facturas"
        description="Las facturas electrónicas (FEL) de las recargas acreditadas, las más recientes primero (hora de Guatemala). Abra una para ver sus números, sus intentos ante el certificador y el XML certificado."
      />
      <InvoicingStoppedBanner health={certifier} />
      {invoicing !== 'on' && (
        <p className="notice warn" role="note" data-testid="fel-off">
          {invoicing === 'off' ? INVOICE_PAGE_MESSAGES.felOff : INVOICE_PAGE_MESSAGES.undecided}
        </p>
      )}
      {toCorrect > 0 && !correcting && (
        <p className="notice warn" role="note" data-testid="invoices-to-correct">
          {`${toCorrect === 1 ? 'Una factura está' : `${toCorrect} facturas están`} por corregir: el certificador rechazó sus datos. `}
          <Link href="/admin/facturas?estado=to_correct">Ver las facturas por corregir</Link>
        </p>
      )}
      {correcting && (
        <p className="small muted" data-testid="to-correct-help">
          Por corregir: facturas que el certificador rechazó por sus datos, con su mensaje. Corrija el receptor de la integración y, en cada factura, reintente con el mismo identificador.
        </p>
      )}
      <FilterForm action="/admin/facturas" reset={applied.size > 0 ? { href: '/admin/facturas', label: 'Ver todas' } : undefined}>
        <FilterSelect name="estado" label="Estado" value={filters.state} all="Todos" options={INVOICE_STANDINGS.map((state) => ({ value: state, label: INVOICE_STANDING_LABELS[state] }))} />
        <div className="field">
          <label htmlFor="mes">Mes</label>
          <input id="mes" name="mes" type="month" defaultValue={filters.month ?? ''} />
        </div>
      </FilterForm>
      <section className="card" aria-labelledby="lista-facturas">
        <h2 id="lista-facturas" className="sr-only">
          Lista de facturas
        </h2>
        {page.rows.length === 0 ? (
          <EmptyState title={INVOICE_PAGE_MESSAGES.noInvoices} />
        ) : (
          <div className="table-wrap" role="region" aria-labelledby="lista-facturas" tabIndex={0}>
            <table className="data stacked" data-testid="invoices">
              <thead>
                <tr>
                  <th>Integración</th>
                  <th>Fecha</th>
                  <th>Receptor</th>
                  <th className="num">Total</th>
                  <th>Estado</th>
                  <th>Serie y número</th>
                  {correcting && <th>Mensaje del certificador</th>}
                </tr>
              </thead>
              <tbody>
                {page.rows.map((invoice) => (
                  <tr key={invoice.id} data-testid="invoice-row">
                    <td data-label="Integración">
                      <Link href={`/admin/integraciones/${invoice.integrationId}`}>{invoice.integrationName}</Link>
                    </td>
                    <td className="nowrap" data-label="Fecha">
                      <Link href={`/admin/facturas/${invoice.id}`}>{formatDateTime(invoice.createdAt)}</Link>
                    </td>
                    <td data-label="Receptor">{invoice.receptor}</td>
                    <td className="num" data-label="Total">
                      {formatQuetzales(invoice.totalCentavos)}
                    </td>
                    <td data-label="Estado">
                      <InvoiceStateBadge state={invoice.standing} />
                      {invoice.creditNote && (
                        <span className="small" data-testid="invoice-credit-note">
                          {` ${creditNoteName(invoice.creditNote)}`}
                        </span>
                      )}
                    </td>
                    <td data-label="Serie y número">
                      <Link href={`/admin/facturas/${invoice.id}`}>{invoiceNumberCell(invoice)}</Link>
                    </td>
                    {correcting && (
                      <td data-label="Mensaje del certificador" data-testid="invoice-error">
                        {invoice.lastErrorMessage ?? ''}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {page.next && (
          <Pagination newer={after ? firstPage : undefined} older={`/admin/facturas?${new URLSearchParams([...applied, ['despues', page.next]])}`} olderLabel="Facturas anteriores" />
        )}
      </section>
    </>
  );
}
