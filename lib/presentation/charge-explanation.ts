import { isCatalogLookup, type LedgerEntryKind, type LookupKind } from '@/db/schema';
import { OUTCOME_UNKNOWN_DETAIL, VOIDED_BY_SWEEPER_NOTE } from '@/lib/core/billing/holds';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';


// A query's charge as support reads it: one line (charged, or not and why) and the balance
// movements behind it with their effect on the balance, which add up to minus the charge. The
// ledger's capture moves nothing (the hold already took the money; lib/core/billing/holds.ts): shown
// as such, it no longer reads as a second, contradictory amount beside "Cobrado".

export interface ChargeMovement {
  id: number;
  label: string;
  /** What this movement did to the balance: the hold takes the tariff, a void gives it back. */
  effectCentavos: number;
  createdAt: Date;
}

export interface ChargeExplanation {
  chargedCentavos: number;
  /** Why nothing was charged; undefined when something was. */
  notChargedBecause?: string;
  movements: ChargeMovement[];
  /** The movements' sum: minus the charge once the query is settled. */
  totalEffectCentavos: number;
}

const MOVEMENT_LABELS: Partial<Record<LedgerEntryKind, string>> = {
  hold: 'Reserva del saldo al iniciar la consulta',
  capture: 'Cobro confirmado: la reserva queda como cobro',
  void: 'Reserva liberada: el saldo se devuelve',
};

const SWEEPER_VOID_LABEL = 'Reserva liberada por el barrido: el proceso terminó antes de registrar la consulta';

export function explainCharge(
  record: { httpStatus: number; chargedCentavos: number; tariffCentavos: number | null; errorMessage: string | null },
  ledger: ReadonlyArray<{ id: number; kind: LedgerEntryKind; amountCentavos: number; actor: string; createdAt: Date }>,
  lookup: LookupKind,
): ChargeExplanation {
  const movements = ledger
    .filter((entry) => MOVEMENT_LABELS[entry.kind] !== undefined)
    .map((entry) => ({
      id: entry.id,
      label: entry.kind === 'void' && entry.actor === 'system:sweeper' ? SWEEPER_VOID_LABEL : MOVEMENT_LABELS[entry.kind]!,
      effectCentavos: entry.amountCentavos,
      createdAt: entry.createdAt,
    }));
  const totalEffectCentavos = movements.reduce((sum, movement) => sum + movement.effectCentavos, 0);
  return { chargedCentavos: record.chargedCentavos, notChargedBecause: notChargedBecause(record, lookup), movements, totalEffectCentavos };
}

function notChargedBecause(
  record: { httpStatus: number; chargedCentavos: number; tariffCentavos: number | null; errorMessage: string | null },
  lookup: LookupKind,
): string | undefined {
  if (record.chargedCentavos > 0) return undefined;
  if (!isCatalogLookup(lookup)) return `${LOOKUP_LABELS[lookup]} no se cobra: solo los catálogos tienen tarifa.`;
  if (record.errorMessage?.startsWith(OUTCOME_UNKNOWN_DETAIL)) {
    return 'Resultado desconocido: la instancia se detuvo antes de responder y el barrido liberó la reserva.';
  }
  if (record.httpStatus !== 200) return `Solo se cobra una respuesta 200 y esta terminó en ${record.httpStatus}: la reserva se liberó.`;
  if (record.tariffCentavos === null) return 'No se reservó tarifa para esta consulta.';
  if (record.tariffCentavos === 0) return 'La tarifa de la integración era Q 0.00 cuando se hizo la consulta.';
  if (record.errorMessage?.includes(VOIDED_BY_SWEEPER_NOTE)) {
    return 'La reserva se liberó antes de confirmar el cobro (el proceso se detuvo antes de registrar la consulta).';
  }
  return 'No se confirmó el cobro de la reserva.';
}
