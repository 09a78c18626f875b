import { z } from 'zod';
import { MAX_MOVEMENT_CENTAVOS, MAX_TARIFF_CENTAVOS } from '@/lib/core/integrations/schemas';
import { formatQuetzales, parseQuetzales } from '@/lib/platform/money';

// Field schemas for console forms. Forms send text; these turn it into what the services take,
// with a message that says exactly what is wrong with what was typed.

const AMOUNT_FORMAT = 'Escriba el monto en quetzales, por ejemplo 1,234.50.';

interface AmountRules {
  /** What a negative amount gets told, or undefined when negative amounts are allowed. */
  negative?: string;
  /** What zero gets told, or undefined when zero is allowed. */
  zero?: string;
  maxCentavos: number;
  tooLarge: string;
}

/** Why a typed amount is refused, or its centavos. */
export function readAmount(text: string, rules: AmountRules): { centavos: number } | { message: string } {
  const typed = text.trim();
  if (typed === '') return { message: 'Escriba un monto.' };
  if (/\.\d{3,}$/.test(typed)) return { message: 'Use como máximo dos decimales.' };
  const centavos = parseQuetzales(typed);
  if (centavos === undefined) return { message: rules.negative === undefined ? `${AMOUNT_FORMAT} Use un signo menos para restar.` : AMOUNT_FORMAT };
  if (centavos < 0 && rules.negative !== undefined) return { message: rules.negative };
  if (centavos === 0 && rules.zero !== undefined) return { message: rules.zero };
  if (Math.abs(centavos) > rules.maxCentavos) return { message: rules.tooLarge };
  return { centavos };
}

function amountField(rules: AmountRules) {
  return z.string({ error: 'Escriba un monto.' }).transform((text, context) => {
    const read = readAmount(text, rules);
    if ('message' in read) {
      context.addIssue({ code: 'custom', message: read.message });
      return z.NEVER;
    }
    return read.centavos;
  });
}

/** A tariff in quetzales, as centavos: zero (free) up to the maximum tariff. */
export const tariffField = amountField({
  negative: 'La tarifa no puede ser negativa.',
  maxCentavos: MAX_TARIFF_CENTAVOS,
  tooLarge: `La tarifa máxima es ${formatQuetzales(MAX_TARIFF_CENTAVOS)} por consulta.`,
});

/** An amount of money that may be zero (an opening balance), as centavos. */
export const quetzalesField = amountField({
  negative: 'El monto no puede ser negativo.',
  maxCentavos: MAX_MOVEMENT_CENTAVOS,
  tooLarge: `El monto máximo es ${formatQuetzales(MAX_MOVEMENT_CENTAVOS)}.`,
});

/** A positive amount in quetzales (a top-up), as centavos. */
export const positiveQuetzalesField = amountField({
  negative: 'El monto debe ser mayor que cero.',
  zero: 'El monto debe ser mayor que cero.',
  maxCentavos: MAX_MOVEMENT_CENTAVOS,
  tooLarge: `El monto máximo es ${formatQuetzales(MAX_MOVEMENT_CENTAVOS)}.`,
});

/** An amount that may be negative ("-5.00" takes money away), as centavos; never zero. */
export const signedQuetzalesField = amountField({
  zero: 'El ajuste no puede ser cero.',
  maxCentavos: MAX_MOVEMENT_CENTAVOS,
  tooLarge: `El ajuste máximo es de ${formatQuetzales(MAX_MOVEMENT_CENTAVOS)}, para sumar o para restar.`,
});
/** An integration's low-balance alert threshold: empty uses the deployment's default (null). */
export const lowBalanceAlertField = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  amountField({
    negative: 'El umbral no puede ser negativo.',
    maxCentavos: MAX_MOVEMENT_CENTAVOS,
    tooLarge: `El umbral máximo es ${formatQuetzales(MAX_MOVEMENT_CENTAVOS)}.`,
  }).nullable(),
);

/** A checkbox: present ("on") when checked, absent otherwise; also accepts booleans. */
export const checkboxField = z.preprocess((value) => value === true || value === 'on' || value === 'true', z.boolean());

/** A boolean sent explicitly (switches, activate/deactivate buttons). */
export const booleanField = z.preprocess((value) => (value === 'true' ? true : value === 'false' ? false : value), z.boolean());

export const idField = z.coerce.number({ error: 'Falta el identificador.' }).int().positive('Identificador inválido.');

export const noteField = z.string({ error: 'Escriba una nota.' }).trim().min(3, 'Escriba una nota que explique el movimiento (al menos 3 caracteres).').max(500, 'La nota puede tener como máximo 500 caracteres.');
