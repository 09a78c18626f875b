import { formatQuetzales } from '@/lib/platform/money';
import { statementIssued as statementIssuedEvent } from '@/lib/flows/statements/events';
import { findStatement } from '@/lib/flows/statements/statements';
import { renderStatementPdf } from '@/lib/flows/statements/pdf';
import { statementInvoices } from '@/lib/flows/statements/invoices';
import { defineNotificationKind, on, type IntegrationNamed } from './notice';

export interface IssuedStatement {
  id: number;
  month: string;
  number: number;
  figures: { openingBalanceCentavos: number; closingBalanceCentavos: number; charges: { count: number; totalCentavos: number } };
}

/** A statement just issued, for the billing contact: its e-mail attaches the PDF. Once per statement. */
export const statementIssued = defineNotificationKind({
  kind: 'statement_issued',
  tipo: 'estado_de_cuenta_emitido',
  contact: 'billing',
  label: 'Estado de cuenta emitido',
  emailLabels: { total_centavos: 'Cobrado en el período', numero: 'Estado de cuenta', periodo: 'Período' },
  notice: ({ integration, statement, monthLabel }: { integration: IntegrationNamed; statement: IssuedStatement; monthLabel: string }) => ({
    integration,
    key: `estado_de_cuenta:${statement.id}`,
    titulo: `Estado de cuenta de ${monthLabel}`,
    mensaje:
      `Se emitió el estado de cuenta No. ${statement.number} de «${integration.nombre}», de ${monthLabel}: ` +
      `${statement.figures.charges.count.toLocaleString('es-GT')} consultas cobradas por ${formatQuetzales(statement.figures.charges.totalCentavos)}; ` +
      `saldo al cierre ${formatQuetzales(statement.figures.closingBalanceCentavos)}. El correo lleva el PDF adjunto.`,
    datos: {
      numero: statement.number,
      periodo: statement.month,
      estado_de_cuenta_id: statement.id,
      total_centavos: statement.figures.charges.totalCentavos,
      saldo_centavos: statement.figures.closingBalanceCentavos,
    },
    statementId: statement.id,
  }),
  docs: {
    when: 'Se emitió el estado de cuenta del mes. El correo lleva el PDF; el webhook, sus cifras. Uno por estado de cuenta.',
    exampleId: 3,
    example: ({ integration }) => ({
      integration,
      statement: { id: 88, month: '2026-10', number: 7, figures: { openingBalanceCentavos: 50_000, closingBalanceCentavos: 31_250, charges: { count: 125, totalCentavos: 18_750 } } },
      monthLabel: 'octubre de 2026',
    }),
  },
  heard: on(statementIssuedEvent),
  /** The statement's PDF, rendered at delivery from the stored statement (the same bytes as the console's download). */
  async attachments(notification) {
    const month = String(notification.datos.periodo);
    const statement = await findStatement(notification.integracion.id, month);
    if (!statement) throw new Error(`el estado de cuenta ${month} ya no existe`);
    const pdf = await renderStatementPdf(statement, notification.servicio, await statementInvoices(statement));
    return [{ filename: `estado-de-cuenta-${notification.integracion.nombre}-${month}.pdf`, content: pdf, contentType: 'application/pdf' }];
  },
});
