import { eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations } from '@/db/schema';
import { formatQuetzales } from '@/lib/platform/money';
import { findCertifiedInvoice } from '@/lib/core/invoices/documents';
import { invoiceCertified } from '@/lib/flows/invoicing/events';
import { invoiceFileName, invoicePdf } from '@/lib/flows/invoicing/documents';
import { defineNotificationKind, on, portalPage, type IntegrationNamed } from './notice';

/** A top-up's certified FEL invoice, as its notice tells of it: SAT's numbers and amounts, no receptor. */
export interface IssuedInvoiceFacts {
  id: number;
  documentType: string;
  serie: string;
  numero: string;
  uuid: string;
  certifiedAt: Date;
  taxableCentavos: number;
  taxCentavos: number;
  totalCentavos: number;
}

/**
 * A top-up's invoice just certified: its numbers, amounts and where to download it. The e-mail to the
 * billing contact (the invoice is what the integrator's accountant books the top-up with) attaches its
 * PDF. Once per invoice (its id is the key).
 */
export const invoiceIssued = defineNotificationKind({
  kind: 'invoice_issued',
  tipo: 'factura_emitida',
  contact: 'billing',
  label: 'Factura emitida',
  emailLabels: {
    serie: 'Serie',
    numero_dte: 'Número',
    uuid: 'Número de autorización (UUID)',
    certificada: 'Certificada',
    monto_gravable_centavos: 'Subtotal (monto gravable)',
    iva_centavos: 'IVA',
    monto_total_centavos: 'Total',
  },
  notice: ({ integration, invoice }: { integration: IntegrationNamed; invoice: IssuedInvoiceFacts }, context) => {
    const page = portalPage(context, `/facturas/${invoice.id}`);
    return {
      integration,
      key: `factura_emitida:${invoice.id}`,
      titulo: `Factura ${invoice.serie}-${invoice.numero} emitida`,
      mensaje:
        `Se certificó ante SAT la factura electrónica ${invoice.serie}-${invoice.numero} de «${integration.nombre}» por su recarga de ${formatQuetzales(invoice.totalCentavos)}` +
        ` (número de autorización ${invoice.uuid}). El correo lleva el PDF adjunto; el XML y el PDF están en el portal, en Facturas (${page}).`,
      datos: {
        factura_id: invoice.id,
        tipo_documento: invoice.documentType,
        serie: invoice.serie,
        numero_dte: invoice.numero,
        uuid: invoice.uuid,
        certificada: invoice.certifiedAt.toISOString(),
        monto_gravable_centavos: invoice.taxableCentavos,
        iva_centavos: invoice.taxCentavos,
        monto_total_centavos: invoice.totalCentavos,
        factura_url: page,
      },
    };
  },
  docs: {
    when: 'Se certificó ante SAT la factura electrónica (FEL) de una recarga acreditada: su serie, número (`datos.numero_dte`), número de autorización (`datos.uuid`), montos y dónde descargar su XML y su PDF en el portal (`datos.factura_url`). El correo al contacto de facturación lleva el PDF. Uno por factura.',
    exampleId: 22,
    example: ({ integration, now }) => ({
      integration,
      invoice: {
        id: 318,
        documentType: 'FACT',
        serie: '7A3F01C2',
        numero: '2605471521',
        uuid: '7A3F01C2-9B44-4E21-8D10-5C6E7F809A1B',
        certifiedAt: now,
        taxableCentavos: 44_643,
        taxCentavos: 5_357,
        totalCentavos: 50_000,
      },
    }),
  },
  // Emitted by the invoice worker's claim, and again until every listener took it: keyed by the invoice,
  // it is told once however often it is heard, and a failure to queue it fails the event (told again).
  heard: on(
    invoiceCertified,
    async ({ invoiceId, integrationId }) => {
      const [invoice, [integration]] = await Promise.all([
        findCertifiedInvoice(invoiceId, integrationId),
        (await db()).select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, integrationId)),
      ]);
      return invoice && integration ? { integration, invoice } : null;
    },
    { failsTheEvent: true },
  ),
  // The billing profile's address for invoices gets each certified invoice too.
  alsoEmailed: async (integration) => (integration.invoiceEmail ? [integration.invoiceEmail] : []),
  /** The invoice's PDF, rendered at delivery from the stored invoice (the same bytes as the portal's download). */
  async attachments(notification) {
    const invoice = await findCertifiedInvoice(Number(notification.datos.factura_id), notification.integracion.id);
    if (!invoice) throw new Error(`la factura ${String(notification.datos.factura_id)} ya no está certificada`);
    const pdf = await invoicePdf(invoice);
    // Without the issuer's settings (FEL turned off since) the notice goes without its PDF: the portal has it.
    return pdf ? [{ filename: invoiceFileName(invoice, 'pdf'), content: pdf, contentType: 'application/pdf' }] : [];
  },
});
