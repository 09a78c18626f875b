import { formatQuetzales } from '@/lib/platform/money';
import { saleAwaitsReceptor, type SaleAwaitingReceptor } from '@/lib/core/billing/events';
import { defineNotificationKind, on, portalPage } from './notice';

/**
 * A top-up was credited, but its invoice waits for the integration's NIT: SAT takes no invoice to
 * consumidor final from Q 2,500.00. Once per credited top-up. For billing: only the integration's
 * accountant knows the NIT its invoices must name. Always sent: without it money sits credited with
 * its invoice undone and nobody told.
 */
export const invoiceAwaitingReceptor = defineNotificationKind({
  kind: 'invoice_awaiting_receptor',
  tipo: 'factura_pendiente_nit',
  contact: 'billing',
  alwaysSent: true,
  label: 'Factura pendiente: falta el NIT',
  notice: (sale: SaleAwaitingReceptor, context) => ({
    integration: sale.integration,
    key: `factura_pendiente_nit:${sale.ledgerEntryId}`,
    titulo: 'Registre su NIT para recibir la factura de su recarga',
    mensaje:
      `Acreditamos ${formatQuetzales(sale.amountCentavos)} al saldo de «${sale.integration.nombre}», pero SAT no permite facturar ese monto a consumidor final: ` +
      `la factura se emitirá en cuanto registre el NIT (o el CUI) de su empresa en sus datos de facturación (${portalPage(context, '/facturas/datos')}).`,
    datos: { monto_centavos: sale.amountCentavos, movimiento_id: sale.ledgerEntryId },
  }),
  docs: {
    when: 'Se acreditó una recarga de Q 2,500.00 o más, pero su integración no tiene NIT (ni CUI) en sus datos de facturación y SAT no admite facturar ese monto a consumidor final: la factura queda pendiente y se emite sola en cuanto se registre (portal, Facturas, «Datos de facturación»). Uno por recarga; siempre se envía (no se puede desactivar).',
    exampleId: 17,
    example: ({ integration }) => ({ integration, ledgerEntryId: 5_120, amountCentavos: 300_000 }),
  },
  heard: on(saleAwaitsReceptor),
});
