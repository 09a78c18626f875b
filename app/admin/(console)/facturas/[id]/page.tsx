import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { ActionForm } from '@/components/console/action-form';
import { PageHeader } from '@/components/console/page-header';
import { hasRole } from '@/lib/surfaces/console/session';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime, guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { creditNoteName, invoiceName, INVOICE_CALL_LABELS, INVOICE_NEXT_STEP, INVOICE_OUTCOME_LABELS, INVOICE_PAGE_MESSAGES } from '@/lib/presentation/invoice-labels';
import { invoiceReversalView } from '@/lib/surfaces/console/invoice-reversals';
import { findInvoice, invoiceDocuments, invoiceIdOf, type InvoiceDetail } from '@/lib/surfaces/console/invoices';
import { InvoiceStateBadge } from '../state-badge';
import { ReversalSection } from './reversal-section';
import { retryInvoiceAction } from './actions';

/** The invoice of the address, read once per request (the title and the page); 404 when there is none. */
const invoiceOrNotFound = cache(async (id: string): Promise<InvoiceDetail> => {
  const invoiceId = invoiceIdOf(id);
  const invoice = invoiceId === undefined ? undefined : await findInvoice(invoiceId);
  if (!invoice) notFound();
  return invoice;
});

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  await requirePageUser('support');
  return { title: invoiceName(await invoiceOrNotFound((await params).id)) };
}

// An invoice's page: its state and what happens next, SAT's numbers, the receptor and amounts as at
// the sale, the top-up it invoices, every call to the certifier, and the certified XML.
export default async function InvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('support');
  const invoice = await invoiceOrNotFound((await params).id);
  const reversals = await invoiceReversalView(invoice);
  const { pdf: certified, verification } = await invoiceDocuments(invoice);
  // The movements of the sale's day (Guatemala's calendar), where its top-up is.
  const saleDay = guatemalanToday(invoice.sale.createdAt);
  const movements = `/admin/integraciones/${invoice.integrationId}/movimientos`;
  const notYet = <span className="muted">Todavía no</span>;
  return (
    <>
      <p className="small">
        <Link href="/admin/facturas">← Facturas</Link>
      </p>
      <PageHeader title={invoiceName(invoice)} description={`Factura electrónica (${invoice.documentType}) de una recarga de ${invoice.integrationName}.`} />
      <section className="card" aria-labelledby="estado-factura">
        <h2 id="estado-factura">Estado</h2>
        <p>
          <InvoiceStateBadge state={invoice.standing} />
        </p>
        <p data-testid="invoice-next-step">{INVOICE_NEXT_STEP[invoice.standing]}</p>
        {invoice.correctsInvoiceId !== null && (
          <p data-testid="invoice-replaces">
            {'Reemplaza, por la misma recarga, a la '}
            <Link href={`/admin/facturas/${invoice.correctsInvoiceId}`}>{`factura #${invoice.correctsInvoiceId}`}</Link>
            {', cuyo receptor se corrigió.'}
          </p>
        )}
        {invoice.standing === 'credited' && reversals.live?.uuid && (
          <p data-testid="invoice-credit-note">
            {`${creditNoteName(reversals.live)} (UUID ${reversals.live.uuid}). `}
            <a href={`/admin/facturas/${invoice.id}/nota-de-credito/${reversals.live.id}/pdf`} download data-testid="credit-note-pdf">
              Descargar su PDF
            </a>
          </p>
        )}
        {invoice.standing === 'awaiting_receptor' && (
          <p>
            <Link href={`/admin/integraciones/${invoice.integrationId}/datos#receptor`}>Registrar el receptor de la integración</Link>
          </p>
        )}
        {invoice.state !== 'certified' && invoice.lastErrorMessage && (
          <p className="notice warn" role="note" data-testid="invoice-last-error">
            {`Último mensaje del certificador${invoice.lastErrorCode ? ` (${invoice.lastErrorCode})` : ''}: ${invoice.lastErrorMessage}`}
          </p>
        )}
        {invoice.state === 'to_correct' && (
          <div className="stack" data-testid="invoice-correction">
            <p>
              {`Al reintentar se enviará con el mismo identificador y el receptor que la integración tiene ahora: ${invoice.integrationReceptor}. `}
              <Link href={`/admin/integraciones/${invoice.integrationId}/datos#receptor`}>Corregir el receptor de la integración</Link>
            </p>
            {user.role === 'admin' && (
              <ActionForm action={retryInvoiceAction} hidden={{ invoiceId: invoice.id }} submitLabel="Reintentar con el mismo identificador" pendingLabel="Reintentando…">
                {null}
              </ActionForm>
            )}
          </div>
        )}
        {(invoice.hasXml || certified) && (
          <p className="actions">
            {invoice.hasXml && (
              <a className="button secondary" href={`/admin/facturas/${invoice.id}/xml`} download data-testid="invoice-xml">
                Descargar el XML certificado
              </a>
            )}
            {certified && (
              <a className="button secondary" href={`/admin/facturas/${invoice.id}/pdf`} download data-testid="invoice-pdf">
                Descargar el PDF
              </a>
            )}
          </p>
        )}
        {verification && (
          <p>
            <a href={verification} target="_blank" rel="noopener noreferrer" data-testid="invoice-sat-verification">
              {INVOICE_PAGE_MESSAGES.verifyAtSat}
            </a>
          </p>
        )}
      </section>
      <section className="card" aria-labelledby="datos-factura">
        <h2 id="datos-factura">Datos de la factura</h2>
        <dl className="details" data-testid="invoice-details">
          <dt>Integración</dt>
          <dd>
            <Link href={`/admin/integraciones/${invoice.integrationId}`}>{invoice.integrationName}</Link>
          </dd>
          <dt>Número de autorización (UUID)</dt>
          <dd data-testid="invoice-uuid">{invoice.uuid ?? notYet}</dd>
          <dt>Serie</dt>
          <dd data-testid="invoice-serie">{invoice.serie ?? notYet}</dd>
          <dt>Número</dt>
          <dd data-testid="invoice-numero">{invoice.numero ?? notYet}</dd>
          <dt>Certificada</dt>
          <dd>{invoice.certifiedAt ? formatDateTime(invoice.certifiedAt) : notYet}</dd>
          <dt>Certificador</dt>
          <dd>{invoice.certifier ?? notYet}</dd>
          <dt>Emitida</dt>
          <dd>{formatDateTime(invoice.emittedAt)}</dd>
          <dt>Receptor</dt>
          <dd data-testid="invoice-receptor">{invoice.receptor}</dd>
          <dt>Subtotal (monto gravable)</dt>
          <dd data-testid="invoice-taxable">{formatQuetzales(invoice.taxableCentavos)}</dd>
          <dt>IVA</dt>
          <dd data-testid="invoice-tax">{formatQuetzales(invoice.taxCentavos)}</dd>
          <dt>Total</dt>
          <dd data-testid="invoice-total">{formatQuetzales(invoice.totalCentavos)}</dd>
          <dt>Identificador del documento</dt>
          <dd className="small">{invoice.identifier}</dd>
        </dl>
      </section>
      <ReversalSection invoice={invoice} reversals={reversals} canAct={hasRole(user, 'admin')} />
      <section className="card" aria-labelledby="recarga-factura">
        <h2 id="recarga-factura">Recarga facturada</h2>
        <p data-testid="invoice-sale">
          {`Movimiento #${invoice.sale.id}: recarga de ${formatQuetzales(invoice.sale.amountCentavos)} el ${formatDateTime(invoice.sale.createdAt)}`}
          {invoice.sale.note ? ` (${invoice.sale.note})` : ''}.{' '}
          <Link href={`${movements}?${new URLSearchParams({ desde: saleDay, hasta: saleDay })}`}>Ver en los movimientos de la integración</Link>
        </p>
      </section>
      <section className="card" aria-labelledby="intentos-factura">
        <h2 id="intentos-factura">Intentos ante el certificador</h2>
        {invoice.attempts.length === 0 ? (
          <p className="muted">Todavía no se ha enviado al certificador.</p>
        ) : (
          <div className="table-wrap" role="region" aria-labelledby="intentos-factura" tabIndex={0}>
            <table className="data stacked" data-testid="invoice-attempts">
              <thead>
                <tr>
                  <th>Hora</th>
                  <th>Llamada</th>
                  <th>Resultado</th>
                  <th>Código o motivo</th>
                  <th className="num">Duración</th>
                </tr>
              </thead>
              <tbody>
                {invoice.attempts.map((attempt) => (
                  <tr key={attempt.id} data-testid="invoice-attempt">
                    <td className="nowrap" data-label="Hora">
                      {formatDateTime(attempt.createdAt)}
                    </td>
                    <td data-label="Llamada">{INVOICE_CALL_LABELS[attempt.call] ?? attempt.call}</td>
                    <td data-label="Resultado">{INVOICE_OUTCOME_LABELS[attempt.outcome] ?? attempt.outcome}</td>
                    <td data-label="Código o motivo">{attempt.detail ?? ''}</td>
                    <td className="num" data-label="Duración">{`${attempt.durationMs.toLocaleString('es-GT')} ms`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
