import Link from 'next/link';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/console/page-header';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { CF_NAME } from '@/lib/providers/fel/document';
import { creditNoteName, INVOICE_PAGE_MESSAGES, invoiceName, INVOICE_STANDING_TONES, invoiceStanding, PORTAL_INVOICE_STANDING_LABELS } from '@/lib/presentation/invoice-labels';
import { portalInvoicePage } from '@/lib/surfaces/portal/invoices';
import { requirePortalPage } from '@/lib/surfaces/portal/session';

export const metadata: Metadata = { title: 'Factura' };

// One invoice of the session's integration: SAT's numbers, the receptor and amounts as certified,
// SAT's verification link, and the XML and PDF. Another integration's id is the same 404 as an
// unknown one.
export default async function PortalInvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePortalPage(BILLING_READERS);
  const found = await portalInvoicePage(user, (await params).id);
  if (!found) notFound();
  const { row, certified, verification, receptorIdText } = found;
  const title = invoiceName(row);
  const standing = invoiceStanding(row);
  const reversal = certified?.reversal;
  const creditNote = reversal?.creditNote;
  return (
    <>
      <PageHeader title={title} back={{ href: '/portal/facturas', label: 'Facturas' }} />
      <section className="card" aria-labelledby="factura-estado">
        <h2 id="factura-estado">Estado</h2>
        <p>
          <span className={`badge ${INVOICE_STANDING_TONES[standing]}`} data-testid="invoice-state">
            {PORTAL_INVOICE_STANDING_LABELS[standing]}
          </span>
        </p>
        {standing === 'voided' && (
          <p data-testid="invoice-reversal">{`Anulada ante SAT${reversal?.doneAt ? ` el ${formatDateTime(reversal.doneAt)}` : ''}: ya no tiene validez fiscal, y su monto se descontó del saldo.`}</p>
        )}
        {standing === 'void_pending' && <p data-testid="invoice-reversal">Su anulación está en trámite ante SAT; su monto ya se descontó del saldo.</p>}
        {standing === 'credit_note_pending' && <p data-testid="invoice-reversal">Una nota de crédito por su total está en trámite ante SAT; su monto ya se descontó del saldo.</p>}
        {standing === 'credited' && <p data-testid="invoice-reversal">Una nota de crédito certificada ante SAT la revierte por su total; su monto se descontó del saldo.</p>}
        {standing === 'correction_pending' && (
          <p data-testid="invoice-reversal">Se está corrigiendo a quién nombra: en cuanto SAT acepte su anulación (o su nota de crédito), se emitirá otra factura por la misma recarga con sus datos de facturación. El saldo no cambia.</p>
        )}
        {standing === 'corrected' && (
          <p data-testid="invoice-reversal">
            {`${reversal?.voided === false ? 'Revertida por una nota de crédito' : 'Anulada ante SAT'}${reversal?.doneAt ? ` el ${formatDateTime(reversal.doneAt)}` : ''} al corregir a quién nombra; el saldo no cambió. `}
            {row.replacedBy !== null && <Link href={`/portal/facturas/${row.replacedBy}`} data-testid="invoice-replacement">{`La reemplaza la factura #${row.replacedBy}`}</Link>}
          </p>
        )}
        {row.correctsInvoiceId !== null && (
          <p data-testid="invoice-replaces">
            {'Reemplaza, por la misma recarga, a la '}
            <Link href={`/portal/facturas/${row.correctsInvoiceId}`}>{`factura #${row.correctsInvoiceId}`}</Link>
            {', cuyo receptor se corrigió.'}
          </p>
        )}
        {!certified && <p>Todavía no está certificada ante SAT: cuando lo esté, aquí podrá descargar su XML y su PDF.</p>}
        {certified && (
          <p className="actions">
            {certified.hasXml && (
              <a className="button secondary" href={`/portal/facturas/${row.id}/xml`} download data-testid="invoice-xml">
                Descargar el XML certificado
              </a>
            )}
            <a className="button secondary" href={`/portal/facturas/${row.id}/pdf`} download data-testid="invoice-pdf">
              Descargar el PDF
            </a>
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
      {certified && (
        <section className="card" aria-labelledby="factura-datos">
          <h2 id="factura-datos">Datos de la factura</h2>
          <dl className="details" data-testid="invoice-details">
            <dt>Número de autorización (UUID)</dt>
            <dd className="break-anywhere" data-testid="invoice-uuid">
              {certified.uuid}
            </dd>
            <dt>Serie</dt>
            <dd>{certified.serie}</dd>
            <dt>Número</dt>
            <dd>{certified.numero}</dd>
            <dt>Emitida</dt>
            <dd>{formatDateTime(certified.emittedAt)}</dd>
            <dt>Certificada</dt>
            <dd>{formatDateTime(certified.certifiedAt)}</dd>
            <dt>Receptor</dt>
            <dd>{`${receptorIdText} · ${certified.receptorKind === 'cf' ? CF_NAME : (certified.receptorName ?? '')}`}</dd>
            <dt>Subtotal (monto gravable)</dt>
            <dd>{formatQuetzales(certified.taxableCentavos)}</dd>
            <dt>IVA</dt>
            <dd>{formatQuetzales(certified.taxCentavos)}</dd>
            <dt>Total</dt>
            <dd data-testid="invoice-total">{formatQuetzales(certified.totalCentavos)}</dd>
          </dl>
        </section>
      )}
      {creditNote && (
        <section className="card" aria-labelledby="factura-nota-de-credito">
          <h2 id="factura-nota-de-credito">{creditNoteName(creditNote)}</h2>
          <dl className="details" data-testid="invoice-credit-note">
            <dt>Número de autorización (UUID)</dt>
            <dd className="break-anywhere">{creditNote.uuid}</dd>
            <dt>Serie</dt>
            <dd>{creditNote.serie}</dd>
            <dt>Número</dt>
            <dd>{creditNote.numero}</dd>
            {reversal?.doneAt && (
              <>
                <dt>Certificada</dt>
                <dd>{formatDateTime(reversal.doneAt)}</dd>
              </>
            )}
          </dl>
          <p className="actions">
            <a className="button secondary" href={`/portal/facturas/${row.id}/nota-de-credito/pdf`} download data-testid="credit-note-pdf">
              Descargar el PDF de la nota de crédito
            </a>
            {creditNote.hasXml && (
              <a className="button secondary" href={`/portal/facturas/${row.id}/nota-de-credito/xml`} download data-testid="credit-note-xml">
                Descargar el XML de la nota de crédito
              </a>
            )}
          </p>
        </section>
      )}
      {!certified && (
        <section className="card" aria-labelledby="factura-datos">
          <h2 id="factura-datos">Datos de la factura</h2>
          <dl className="details">
            <dt>Fecha de la recarga</dt>
            <dd>{formatDateTime(row.createdAt)}</dd>
            <dt>Total</dt>
            <dd data-testid="invoice-total">{formatQuetzales(row.totalCentavos)}</dd>
          </dl>
        </section>
      )}
    </>
  );
}
