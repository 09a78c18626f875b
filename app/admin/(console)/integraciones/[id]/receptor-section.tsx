import { integrationReceptorView } from '@/lib/surfaces/console/integration-pages';
import type { Integration } from '@/db/schema';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { BillingContactForm } from '@/components/invoices/billing-contact-form';
import { saveBillingContactAction } from './receptor-actions';
import { ReceptorForm } from './receptor-form';

/**
 * The integration's billing profile: whom its FEL invoices name (its NIT with SAT's name, a CUI, or
 * consumidor final, not admitted from Q 2,500.00), its fiscal address and its invoices' e-mail.
 * Administrators set it (and the integration's owner or billing person in the portal); support reads it.
 */
export function ReceptorSection({ integration, isAdmin }: { integration: Integration; isAdmin: boolean }) {
  const { text, set, setAt } = integrationReceptorView(integration);
  return (
    <section className="card" aria-labelledby="receptor-title" id="receptor">
      <h2 id="receptor-title">Receptor de las facturas</h2>
      <p data-testid="integration-receptor">
        {set ? text : `${text} (no registrado): SAT no admite facturar a consumidor final desde Q 2,500.00, así que las facturas de esas recargas quedan pendientes hasta que se registre un NIT o CUI.`}
        {set && setAt && <span className="muted small">{` · registrado el ${formatDateTime(setAt)}`}</span>}
      </p>
      <p className="small muted">Cada factura electrónica (FEL) de una recarga lo nombra como comprador. El nombre de un NIT es el que SAT tiene registrado: se consulta al certificador antes de guardarlo.</p>
      {/* Behind its summary: the receptor is set once and rarely changed, and Datos stays within two screens. */}
      {isAdmin && (
        <details className="receptor-change" data-testid="receptor-change">
          <summary className="button secondary">{set ? 'Cambiar el receptor' : 'Registrar el receptor'}</summary>
          <ReceptorForm integrationId={integration.id} />
        </details>
      )}
      <p data-testid="integration-billing-contact">
        {`Dirección fiscal: ${integration.billingAddress ?? 'no registrada'}. Correo para facturas: ${integration.invoiceEmail ?? 'el del contacto de facturación'}.`}
      </p>
      {isAdmin && (
        <details className="receptor-change" data-testid="billing-contact-change">
          <summary className="button secondary">Cambiar dirección y correo</summary>
          <BillingContactForm action={saveBillingContactAction} hidden={{ integrationId: integration.id }} address={integration.billingAddress} invoiceEmail={integration.invoiceEmail} />
        </details>
      )}
    </section>
  );
}
