// How the console speaks of FEL invoices: their states, what happens next in each, and what became
// of each call to the certifier.
import type { InvoiceReceptorKind, InvoiceReversalStanding, InvoiceState } from '@/db/schema';
import { REVERSAL_STANDING_LABELS } from '@/lib/vocabulary/labels';
import { formatNit } from '@/lib/flows/integration-management/details-display';
import { formatCuiGrouped } from '@/lib/platform/guatemala/identifiers';
import type { Receptor } from '@/lib/providers/fel/document';
import type { CertifierHealth, CertifierState } from '@/lib/core/invoices/health';
import type { CallHealth } from '@/lib/platform/operations/call-health';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

export const INVOICE_STATE_LABELS: Record<InvoiceState, string> = {
  pending: 'Pendiente',
  indeterminate: 'Por confirmar',
  certified: 'Certificada',
  to_correct: 'Por corregir',
  awaiting_receptor: 'Factura pendiente: falta el NIT',
};

/**
 * The states as the portal tells an integrator: whether the invoice waits for the certifier or for
 * the administration is the service's business, not theirs.
 */
export const PORTAL_INVOICE_STATE_LABELS: Record<InvoiceState, string> = {
  pending: 'En trámite',
  indeterminate: 'En trámite',
  certified: 'Certificada',
  to_correct: 'En revisión',
  awaiting_receptor: 'Factura pendiente: falta el NIT',
};

/** The states in the order the filter offers them. */
export const INVOICE_STATES: InvoiceState[] = ['awaiting_receptor', 'pending', 'indeterminate', 'certified', 'to_correct'];

/**
 * An invoice's standing as people read it: its state, or what became of it once certified (a void
 * or a credit note under way or done). The same words in the console and the portal.
 */
export type InvoiceStanding = InvoiceState | InvoiceReversalStanding;

export function invoiceStanding(invoice: { state: InvoiceState; reversal: InvoiceReversalStanding | null }): InvoiceStanding {
  return invoice.reversal ?? invoice.state;
}

export const INVOICE_STANDING_LABELS: Record<InvoiceStanding, string> = { ...INVOICE_STATE_LABELS, ...REVERSAL_STANDING_LABELS };
export const PORTAL_INVOICE_STANDING_LABELS: Record<InvoiceStanding, string> = { ...PORTAL_INVOICE_STATE_LABELS, ...REVERSAL_STANDING_LABELS };

/** The standings in the order the console's filter offers them ("Certificada" is one that stands). */
export const INVOICE_STANDINGS: InvoiceStanding[] = [...INVOICE_STATES, 'void_pending', 'voided', 'credit_note_pending', 'credited', 'correction_pending', 'corrected'];

/** What happens next to an invoice in each state, said on its page under the state. */
export const INVOICE_NEXT_STEP: Record<InvoiceStanding, string> = {
  pending: 'Se enviará al certificador en el próximo intento; si no responde, se reintentará más tarde con el mismo identificador.',
  indeterminate: 'Se consultará al certificador antes de volver a enviarla: el envío anterior no tuvo una respuesta legible y podría estar certificada.',
  certified: 'Está certificada ante SAT: no se enviará de nuevo.',
  to_correct: 'El certificador rechazó sus datos: no se reenviará sola. Corrija el receptor de la integración y reintente con el mismo identificador.',
  awaiting_receptor:
    'La recarga ya se acreditó, pero SAT no admite facturarla a consumidor final (CF) por su monto: se enviará al certificador, con su mismo identificador, en cuanto la integración registre su NIT o CUI en sus datos de facturación.',
  void_pending: 'Su anulación se está enviando al certificador, con su propio identificador; el saldo ya se descontó.',
  voided: 'Anulada ante SAT: ya no tiene validez fiscal.',
  credit_note_pending: 'Su nota de crédito se está enviando al certificador, con su propio identificador; el saldo ya se descontó.',
  credited: 'Una nota de crédito certificada ante SAT la revierte por su total.',
  correction_pending:
    'Su receptor se está corrigiendo: su anulación (o su nota de crédito) se está enviando al certificador y, en cuanto SAT la acepte, se emitirá otra factura por la misma recarga. El saldo no cambia.',
  corrected: 'Se corrigió su receptor: ya no tiene validez fiscal y otra factura por la misma recarga la reemplaza. El saldo no cambió.',
};

/** The badge's tone for each state. */
export const INVOICE_STATE_TONES: Record<InvoiceState, 'ok' | 'warn' | 'danger' | 'off'> = {
  pending: 'off',
  indeterminate: 'warn',
  certified: 'ok',
  to_correct: 'danger',
  awaiting_receptor: 'warn',
};

export const INVOICE_STANDING_TONES: Record<InvoiceStanding, 'ok' | 'warn' | 'danger' | 'off'> = {
  ...INVOICE_STATE_TONES,
  void_pending: 'warn',
  voided: 'danger',
  credit_note_pending: 'warn',
  credited: 'off',
  correction_pending: 'warn',
  corrected: 'off',
};

/**
 * An invoice as the lists and pages name it: by its serie and número once SAT certified it, and
 * before that by what it is for (its own row id, «#35», read like a gap in the integration's own
 * invoices, one of many of the operator's).
 */
export function invoiceName(invoice: { serie: string | null; numero: string | null; createdAt: Date | string }): string {
  return invoice.serie && invoice.numero ? `Factura ${invoice.serie}-${invoice.numero}` : `Factura sin número todavía, de la recarga del ${formatDateTime(invoice.createdAt)}`;
}

/** The same in a list's «Serie y número» column, beside the date: the number, or that it has none yet. */
export function invoiceNumberCell(invoice: { serie: string | null; numero: string | null }): string {
  return invoice.serie && invoice.numero ? `${invoice.serie}-${invoice.numero}` : 'Sin número todavía';
}

/** A credit note as the lists and pages name it. */
export function creditNoteName(note: { serie: string | null; numero: string | null }): string {
  return `Nota de crédito ${note.serie}-${note.numero}`;
}

/** The receptor of a sale to consumidor final (CF). */
export const FINAL_CONSUMER = 'Consumidor final';

/** The receptor as people read it: the NIT or CUI as on an integration's details, its name, or "Consumidor final". */
export function receptorText(receptor: { receptorKind: InvoiceReceptorKind; receptorId: string; receptorName: string | null }): string {
  if (receptor.receptorKind === 'cf') return FINAL_CONSUMER;
  const id = receptor.receptorKind === 'nit' ? `NIT ${formatNit(receptor.receptorId)}` : `CUI ${formatCuiGrouped(receptor.receptorId)}`;
  return receptor.receptorName ? `${id} · ${receptor.receptorName}` : id;
}

/** What the receptor's form shows after a look-up, and sends back to save (console and portal alike). */
export interface FoundReceptor {
  tipo: Receptor['kind'];
  identificador: string;
  nombre: string;
  /** As people read a receptor: "NIT 91000001-8 · EMPRESA…" or "Consumidor final". */
  texto: string;
}

export function foundReceptor(receptor: Receptor): FoundReceptor {
  const [identificador, nombre] = receptor.kind === 'nit' ? [receptor.nit, receptor.name] : receptor.kind === 'cui' ? [receptor.cui, receptor.name] : ['CF', ''];
  return { tipo: receptor.kind, identificador, nombre, texto: receptorText({ receptorKind: receptor.kind, receptorId: identificador, receptorName: nombre || null }) };
}

/** The kinds of receptor an integration's invoices may name, as its form offers them. */
export const RECEPTOR_KIND_LABELS = { nit: 'NIT', cui: 'CUI (persona sin NIT)', cf: 'Consumidor final (CF)' } as const;

/** The calls the worker makes for an invoice, its void or its credit note. */
export const INVOICE_CALL_LABELS: Record<string, string> = {
  certify: 'Certificación',
  lookup: 'Consulta',
  void: 'Anulación',
  credit_note: 'Nota de crédito',
  credit_note_lookup: 'Consulta de la nota de crédito',
};

/** What became of a call (the certifier's outcome as the worker logs it). */
export const INVOICE_OUTCOME_LABELS: Record<string, string> = {
  certified: 'Certificada',
  already_certified: 'Ya estaba certificada',
  rejected: 'Rechazada',
  retry_later: 'Reintentar más tarde',
  credentials_refused: 'Credenciales rechazadas',
  indeterminate: 'Sin respuesta legible',
  found: 'Encontrada',
  not_found: 'No encontrada',
  unavailable: 'No disponible',
  voided: 'Anulada',
};

/** Messages of the invoice pages and the XML download, for the code and its tests. */
export const INVOICE_PAGE_MESSAGES = {
  noInvoices: 'No hay facturas con estos filtros.',
  felOff: 'La facturación electrónica (FEL) está apagada en este despliegue: las recargas se acreditan sin factura. La guía de operación (docs/operations.md, «FEL invoices») dice cómo encenderla.',
  undecided: 'Ninguna instancia de la aplicación ha dicho todavía si factura las recargas: las que se acrediten antes se facturarán (o no) como decida la primera que arranque.',
  xmlNotFound: 'La factura no existe o todavía no tiene un XML certificado.',
  pdfNotFound: 'La factura no existe o todavía no está certificada.',
  creditNotePdfNotFound: 'La nota de crédito no existe o todavía no está certificada.',
  /** Beside the SAT verification link. */
  verifyAtSat: 'Verificar en el portal de SAT',
  signedOut: 'Su sesión terminó o ya no es válida. Vuelva a iniciar sesión.',
} as const;

/** The certifier as a component, as the console names its states (lib/core/invoices/health.ts). */
export const CERTIFIER_STATE_LABELS: Record<CertifierState, string> = {
  up: 'Responde',
  degraded: 'Con fallas: reintentando',
  down: 'No responde',
  credentials_refused: 'Rechaza las credenciales del servicio',
  idle: 'Sin llamadas todavía',
};

export const CERTIFIER_STATE_TONES: Record<CertifierState, 'ok' | 'warn' | 'danger' | 'off'> = {
  up: 'ok',
  degraded: 'warn',
  down: 'danger',
  credentials_refused: 'danger',
  idle: 'off',
};

/**
 * The banner of Facturas and the Panel while invoicing is stopped: since when, why, and what waits.
 * Null while the certifier answers (or only stumbles).
 */
export function invoicingStoppedBanner(health: Pick<CertifierHealth, 'state' | 'since' | 'waiting'>, formatTime: (at: Date) => string): string | null {
  if (health.state !== 'down' && health.state !== 'credentials_refused') return null;
  const why = health.state === 'credentials_refused' ? 'el certificador rechaza las credenciales del servicio (corrija FEL_SIGNING_* y FEL_API_*)' : 'el certificador no responde';
  const since = health.since ? ` desde ${formatTime(health.since)}` : '';
  const waiting = health.waiting === 1 ? 'Una factura espera' : `${health.waiting.toLocaleString('es-GT')} facturas esperan`;
  return `Facturación detenida${since}: ${why}. ${waiting}; se enviarán solas, con su mismo identificador, en cuanto responda. Las recargas se siguen acreditando.`;
}

/**
 * The Panel's banner while the payment provider does not answer: since when, and what it means for
 * the money. Null while it answers (or only stumbles).
 */
export function paymentsFailingBanner(health: Pick<CallHealth, 'state' | 'since'>, formatTime: (at: Date) => string): string | null {
  if (health.state !== 'down' && health.state !== 'credentials_refused') return null;
  const why = health.state === 'credentials_refused' ? 'el proveedor rechaza las llaves del servicio (corrija RECURRENTE_PUBLIC_KEY y RECURRENTE_SECRET_KEY)' : 'el proveedor no responde';
  const since = health.since ? ` desde ${formatTime(health.since)}` : '';
  return `Pagos en línea con fallas${since}: ${why}. No se pueden iniciar pagos ni reembolsos; los pagos abiertos se leerán de nuevo solos y nada se acredita dos veces.`;
}

/** The certifiers as people call them (FEL_CERTIFIER's values). */
export const CERTIFIER_NAMES: Record<string, string> = { infile: 'INFILE' };
