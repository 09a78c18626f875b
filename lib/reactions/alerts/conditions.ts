import { randomUUID } from 'node:crypto';
import type { AdministratorAlertCondition } from '@/db/schema';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import type { SourceHealth, SourceName } from '@/lib/sources/guard';
import type { AlertSettings } from './settings';
import type { BalanceSnapshot, BooksDoNotClose, SaleAwaitingReceptor } from '@/lib/core/billing/events';
import type { MismatchedOnlinePayment } from '@/lib/flows/online-top-ups/events';

// What is worth telling administrators, decided without any I/O: the hot path calls this with the
// balance the settlement statement already returned.

/** An integration's money as the statement that last changed it left it. */
export type { BalanceSnapshot };

/** An alert about to be raised: the condition it is about (its dedup key) and what it says. */
export interface Alert {
  key: string;
  condition: AdministratorAlertCondition;
  integrationId: number | null;
  source: SourceName | null;
  payload: AlertPayload;
}

/** The webhook's JSON body (docs/operations.md, "Alerts"); e-mails say the same in words. */
export interface AlertPayload {
  id: string;
  tipo: 'saldo_bajo' | 'saldo_agotado' | 'circuito_abierto' | 'certificador_rechazo_credenciales' | 'cuentas_no_cuadran' | 'prueba';
  condicion: string;
  fecha: string;
  servicio: string;
  entorno: string;
  titulo: string;
  mensaje: string;
  integracion: { id: number; nombre: string; saldo_centavos: number; umbral_centavos: number; tarifa_centavos: number } | null;
  fuente: { nombre: SourceName; ultimo_error: string | null } | null;
}

const PAYLOAD_TYPE: Record<AdministratorAlertCondition, AlertPayload['tipo']> = {
  balance_low: 'saldo_bajo',
  balance_exhausted: 'saldo_agotado',
  breaker_open: 'circuito_abierto',
  certifier_credentials_refused: 'certificador_rechazo_credenciales',
  books_mismatch: 'cuentas_no_cuadran',
  test: 'prueba',
};

export function lowBalanceThreshold(snapshot: Pick<BalanceSnapshot, 'lowBalanceAlertCentavos'>, settings: Pick<AlertSettings, 'lowBalanceDefaultCentavos'>): number {
  return snapshot.lowBalanceAlertCentavos ?? settings.lowBalanceDefaultCentavos;
}

/**
 * Exhausted: the balance no longer pays one catalog lookup (zero, or below the tariff), so they
 * answer 402. Low: below the integration's threshold. Exhausted says more, so it wins.
 */
export function balanceCondition(snapshot: BalanceSnapshot, settings: Pick<AlertSettings, 'lowBalanceDefaultCentavos'>): 'balance_low' | 'balance_exhausted' | null {
  if (snapshot.balanceCentavos === 0 || snapshot.balanceCentavos < snapshot.tariffCentavos) return 'balance_exhausted';
  if (snapshot.balanceCentavos < lowBalanceThreshold(snapshot, settings)) return 'balance_low';
  return null;
}

type Context = Pick<AlertSettings, 'serviceName' | 'appEnv' | 'lowBalanceDefaultCentavos'>;

/** The alert a balance calls for, or null when it is fine. */
export function balanceAlert(snapshot: BalanceSnapshot, context: Context, now = new Date()): Alert | null {
  const condition = balanceCondition(snapshot, context);
  if (!condition) return null;
  const threshold = lowBalanceThreshold(snapshot, context);
  const balance = formatQuetzales(snapshot.balanceCentavos);
  const [titulo, mensaje] =
    condition === 'balance_exhausted'
      ? [
          `Saldo agotado: ${snapshot.nombre}`,
          `La integración «${snapshot.nombre}» tiene ${balance} de saldo, que no cubre la tarifa de ${formatQuetzales(snapshot.tariffCentavos)}: ` +
            'sus consultas de catálogo responden 402 hasta que se recargue.',
        ]
      : [
          `Saldo bajo: ${snapshot.nombre} (${balance})`,
          `El saldo de la integración «${snapshot.nombre}» bajó a ${balance}, por debajo del umbral de alerta de ${formatQuetzales(threshold)}.`,
        ];
  return build(condition, `${condition}:${snapshot.integrationId}`, context, now, titulo, mensaje, {
    integrationId: snapshot.integrationId,
    integracion: {
      id: snapshot.integrationId,
      nombre: snapshot.nombre,
      saldo_centavos: snapshot.balanceCentavos,
      umbral_centavos: threshold,
      tarifa_centavos: snapshot.tariffCentavos,
    },
  });
}

/** The alert for a source whose circuit breaker just opened. */
export function breakerAlert(source: SourceName, lastError: SourceHealth['lastError'], context: Context, now = new Date()): Alert {
  const detail = lastError ? lastError.detail : null;
  return build(
    'breaker_open',
    `breaker_open:${source}`,
    context,
    now,
    `Fuente caída: ${SOURCE_LABELS[source]}`,
    `El circuito de «${SOURCE_LABELS[source]}» se abrió tras fallos seguidos${detail ? ` (último: ${detail})` : ''}: ` +
      'sus consultas fallan de inmediato, sin cobro, hasta que una prueba confirme que responde de nuevo.',
    { source, fuente: { nombre: source, ultimo_error: detail } },
  );
}

/**
 * The FEL certifier refused the service's credentials: every invoice would fail alike, so the
 * queue waits (lib/flows/invoicing) until they are fixed. One alert per certifier and interval.
 */
export function certifierCredentialsAlert(certifier: string, pausedUntil: Date, context: Context, now = new Date()): Alert {
  return build(
    'certifier_credentials_refused',
    `certifier_credentials_refused:${certifier}`,
    context,
    now,
    'Facturas detenidas: el certificador rechazó las credenciales',
    `El certificador de facturas electrónicas (${certifier}) rechazó las credenciales del servicio: ninguna recarga se ` +
      `factura hasta corregir FEL_SIGNING_* y FEL_API_*. Las facturas esperan y se vuelven a intentar desde las ` +
      `${formatDateTime(pausedUntil)}, con su mismo identificador.`,
    {},
  );
}

/**
 * A verified payment in another currency or for another amount than its checkout's: nothing was
 * credited, and a person must settle it with the provider. One alert per payment.
 */
export function paymentMismatchAlert(payment: MismatchedOnlinePayment, context: Context, now = new Date()): Alert {
  const paid = payment.currency === 'GTQ' ? formatQuetzales(payment.paidCentavos) : `${(payment.paidCentavos / 100).toFixed(2)} ${payment.currency ?? '(moneda no indicada)'}`;
  return build(
    'books_mismatch',
    `books_mismatch:payment:${payment.topUpId}`,
    context,
    now,
    `Pago que no coincide: ${payment.integrationName}`,
    `El proveedor de pagos informó un pago de ${paid} para la recarga en línea ${payment.topUpId} de «${payment.integrationName}», ` +
      `que se abrió por ${formatQuetzales(payment.expectedCentavos)} en quetzales. No se acreditó nada: revise el pago con el proveedor ` +
      'y acredite o reembolse a mano.',
    { integrationId: payment.integrationId },
  );
}

/**
 * A top-up credited whose invoice waits for the integration's NIT: the books have a credit without
 * its document until it is given. One alert per credited top-up.
 */
export function invoiceAwaitingReceptorAlert(sale: SaleAwaitingReceptor, context: Context, now = new Date()): Alert {
  return build(
    'books_mismatch',
    `books_mismatch:receptor:${sale.ledgerEntryId}`,
    context,
    now,
    `Factura pendiente: falta el NIT de ${sale.integration.nombre}`,
    `Se acreditó una recarga de ${formatQuetzales(sale.amountCentavos)} a «${sale.integration.nombre}» y su factura espera: SAT no admite ` +
      'facturarla a consumidor final y la integración no tiene NIT ni CUI registrado. Se le pidió a su contacto de facturación; ' +
      'también puede registrarlo la administración en los datos de facturación de la integración. La factura se emite sola después.',
    { integrationId: sale.integration.id },
  );
}

/**
 * The reconciliation found books that do not close (a payment not credited, a top-up without its
 * invoice, a refund without its credit note…). One alert per interval while it lasts.
 */
export function booksDoNotCloseAlert(books: BooksDoNotClose, labels: Record<string, string>, context: Context, now = new Date()): Alert {
  const lines = books.findings.map((finding) => `integración ${finding.integrationId}: ${labels[finding.kind] ?? finding.kind} (${finding.count})`);
  return build(
    'books_mismatch',
    'books_mismatch:verify',
    context,
    now,
    'Las cuentas no cuadran',
    `La conciliación encontró dinero recibido, acreditado, facturado o devuelto que no coincide: ${lines.join('; ')}. ` +
      'Nada se corrigió solo: revíselo en el Panel o con npm run cli -- books:verify.',
    {},
  );
}

function build(
  condition: AdministratorAlertCondition,
  key: string,
  context: Context,
  now: Date,
  titulo: string,
  mensaje: string,
  subject: { integrationId?: number; integracion?: AlertPayload['integracion']; source?: SourceName; fuente?: AlertPayload['fuente'] },
): Alert {
  return {
    key,
    condition,
    integrationId: subject.integrationId ?? null,
    source: subject.source ?? null,
    payload: {
      id: `alr_${randomUUID()}`,
      tipo: PAYLOAD_TYPE[condition],
      condicion: key,
      fecha: now.toISOString(),
      servicio: context.serviceName,
      entorno: context.appEnv,
      titulo,
      mensaje,
      integracion: subject.integracion ?? null,
      fuente: subject.fuente ?? null,
    },
  };
}

/** The test an administrator sends to the alert channels from the Alertas page ("Enviar aviso de prueba"). */
export function testAlert(context: Context, now = new Date()): Alert {
  return build(
    'test',
    'prueba:administradores',
    context,
    now,
    'Aviso de prueba',
    `Aviso de prueba enviado desde la consola de ${context.serviceName} para comprobar que las alertas a los administradores llegan. No requiere ninguna acción.`,
    {},
  );
}
