import { formatQuetzales } from '@/lib/platform/money';
import { CF_LIMIT_CENTAVOS } from '@/lib/providers/fel/document';
import type { AutoTopUpState } from '@/db/schema';

// What the portal says about automatic top-up; the flow, the pages and their tests import the same words.
export const AUTO_TOP_UP_MESSAGES = {
  forbidden: 'Solo el propietario puede configurar la recarga automática.',
  off: 'Los pagos en línea no están disponibles: la recarga automática no se puede activar.',
  noCard: 'Elija la tarjeta de un pago en línea acreditado de esta integración.',
  notACard: 'Ese pago no se hizo con una tarjeta guardada por el proveedor: elija otro o pague una recarga en línea con tarjeta.',
  unavailable: 'El proveedor de pagos no responde. Intente de nuevo en unos minutos.',
  threshold: 'Escriba el umbral en quetzales, mayor que cero.',
  dailyMax: 'El máximo de recargas automáticas por día debe estar entre 1 y 20.',
  enabled: 'Recarga automática activada.',
  disabled: 'Recarga automática desactivada: no se harán más cargos a la tarjeta.',
  notConfigured: 'Esta integración no tiene recarga automática.',
  receptorNeeded: `SAT no permite facturar ${formatQuetzales(CF_LIMIT_CENTAVOS)} o más a consumidor final, y su integración no tiene NIT ni CUI registrado: elija un monto menor o registre el NIT en «Datos de facturación».`,
} as const;

export const AUTO_TOP_UP_STATE_LABELS: Record<AutoTopUpState, string> = {
  active: 'Activa',
  paused: 'En pausa',
  off: 'Desactivada',
};

/** What the portal's confirmation says was set. */
export function autoTopUpSummary(choice: { thresholdCentavos: number; amountCentavos: number; feeCentavos: number; dailyMax: number }): string {
  return (
    `Cuando el saldo baje de ${formatQuetzales(choice.thresholdCentavos)} se cargarán ${formatQuetzales(choice.amountCentavos + choice.feeCentavos)} a la tarjeta ` +
    `(${formatQuetzales(choice.amountCentavos)} al saldo, comisión ${formatQuetzales(choice.feeCentavos)}), hasta ${choice.dailyMax} ${choice.dailyMax === 1 ? 'vez' : 'veces'} por día.`
  );
}

/** The confirmation's last words when the balance is already under the threshold: the card is charged in minutes. */
export function autoTopUpFirstChargeSoon(balanceCentavos: number, chargeCentavos: number): string {
  return `Su saldo (${formatQuetzales(balanceCentavos)}) ya está por debajo del umbral: el primer cargo de ${formatQuetzales(chargeCentavos)} a la tarjeta se hará en los próximos minutos.`;
}

/** Why it paused, as the portal and the notice say it. */
export function autoTopUpPausedMessage(detail: string): string {
  return `La recarga automática está en pausa: el cargo a la tarjeta y su reintento fallaron (${detail}). Revise la tarjeta y reactívela, o desactívela.`;
}

/** Card networks as their owners call them. */
const CARD_NETWORK_NAMES: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', master: 'Mastercard', amex: 'American Express', american_express: 'American Express', discover: 'Discover', diners: 'Diners Club' };

/**
 * A saved card as its owner recognizes it: "Visa •••• 4242". The provider gives its network and
 * last four digits (not its expiry); a card it did not describe is named by the payment it was saved from.
 */
export function savedCardLabel(card: { network: string; last4: string } | null, payment?: { amountCentavos: number; settledOn: string | null }): string {
  const from = payment ? `pago de ${formatQuetzales(payment.amountCentavos)}${payment.settledOn ? ` del ${payment.settledOn}` : ''}` : null;
  if (card === null) return from ? `La tarjeta del ${from}` : 'La tarjeta guardada';
  const network = CARD_NETWORK_NAMES[card.network] ?? card.network.charAt(0).toUpperCase() + card.network.slice(1);
  return `${network} •••• ${card.last4}${from ? ` (${from})` : ''}`;
}
