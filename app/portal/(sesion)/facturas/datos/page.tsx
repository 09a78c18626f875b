import type { Metadata } from 'next';
import Link from 'next/link';
import { PageHeader } from '@/components/console/page-header';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { CF_LIMIT_CENTAVOS, receptorId } from '@/lib/providers/fel/document';
import { receptorText } from '@/lib/presentation/invoice-labels';
import { portalBillingReceptor } from '@/lib/surfaces/portal/invoices';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { BillingReceptorForm, PortalBillingContactForm } from './receptor-form';

export const metadata: Metadata = { title: 'Datos de facturación' };

// "Datos de facturación": whom the integration's FEL invoices name (its NIT with the name SAT has
// for it, a person's CUI, or consumidor final), set by its owner or billing person. Invoices of
// top-ups credited without a receptor SAT takes wait here for it, and leave when it is saved.
export default async function PortalBillingDataPage() {
  const user = await requirePortalPage(BILLING_READERS);
  const { receptor, set, setAt, awaiting, address, invoiceEmail } = await portalBillingReceptor(user);
  const text = receptorText({ receptorKind: receptor.kind, receptorId: receptorId(receptor), receptorName: receptor.kind === 'cf' ? null : receptor.name });
  return (
    <>
      <PageHeader
        title="Datos de facturación"
        back={{ href: '/portal/facturas', label: 'Facturas' }}
        description="A quién nombran las facturas electrónicas (FEL) de sus recargas y sus estados de cuenta, su dirección fiscal y a dónde se envían las facturas. El nombre de un NIT es el que SAT tiene registrado: se consulta antes de guardarlo."
      />
      {awaiting.count > 0 && (
        <p className="notice warn" role="note" data-testid="invoices-awaiting-receptor">
          {`${awaiting.count === 1 ? 'Una factura espera' : `${awaiting.count} facturas esperan`} este dato (${formatQuetzales(awaiting.totalCentavos)} ya acreditados a su saldo): SAT no permite facturar ${formatQuetzales(CF_LIMIT_CENTAVOS)} o más a consumidor final. Al registrar su NIT o CUI se emiten solas.`}
        </p>
      )}
      <section className="card" aria-labelledby="receptor-actual">
        <h2 id="receptor-actual">Receptor de sus facturas</h2>
        <p data-testid="billing-receptor">
          {set ? text : `${text}: no ha registrado un NIT ni un CUI. Las recargas de hasta ${formatQuetzales(CF_LIMIT_CENTAVOS - 1)} se facturan a consumidor final; las de más quedan con la factura pendiente, y los pagos en línea de ese monto no se aceptan hasta registrarlo.`}
          {set && setAt && <span className="muted small">{` · registrado el ${formatDateTime(setAt)}`}</span>}
        </p>
        <details className="receptor-change" data-testid="receptor-change" open={!set}>
          <summary className="button secondary">{set ? 'Cambiar el receptor' : 'Registrar el NIT o CUI'}</summary>
          <BillingReceptorForm />
        </details>
        <p className="small muted">
          Cambiarlo no corrige por sí solo las facturas ya certificadas: las próximas lo usarán. Si una ya emitida nombra a otro receptor, pida a soporte que la corrija: se anula (o se
          emite su nota de crédito) y se emite otra por la misma recarga a este receptor, sin tocar su saldo. Vea sus facturas en <Link href="/portal/facturas">Facturas</Link>.
        </p>
        <h3>Dirección y correo de facturación</h3>
        <p data-testid="billing-contact">{`Dirección fiscal: ${address ?? 'no registrada'}. Correo para facturas: ${invoiceEmail ?? 'el del contacto de facturación'}.`}</p>
        <PortalBillingContactForm address={address} invoiceEmail={invoiceEmail} />
      </section>
    </>
  );
}
