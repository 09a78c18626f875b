import { z } from 'zod';
import { parseQuetzales } from '@/lib/money';

// Field schemas for console forms. Forms send text; these turn it into what the services take.

const AMOUNT_FORMAT = 'Escribe el monto en quetzales, por ejemplo 1,234.50.';

/** An amount typed in quetzales ("1,234.50", "Q 12") as integer centavos, zero or more. */
export const quetzalesField = z
  .string({ error: 'Escribe un monto.' })
  .trim()
  .min(1, 'Escribe un monto.')
  .transform((text, context) => {
    const centavos = parseQuetzales(text);
    if (centavos === undefined || centavos < 0) {
      context.addIssue({ code: 'custom', message: AMOUNT_FORMAT });
      return z.NEVER;
    }
    return centavos;
  });

/** A positive amount in quetzales, as centavos. */
export const positiveQuetzalesField = quetzalesField.refine((centavos) => centavos > 0, 'El monto debe ser mayor que cero.');

/** An amount that may be negative ("-5.00" takes money away), as centavos; never zero. */
export const signedQuetzalesField = z
  .string({ error: 'Escribe un monto.' })
  .trim()
  .min(1, 'Escribe un monto.')
  .transform((text, context) => {
    const centavos = parseQuetzales(text);
    if (centavos === undefined) {
      context.addIssue({ code: 'custom', message: `${AMOUNT_FORMAT} Usa un signo menos para restar.` });
      return z.NEVER;
    }
    return centavos;
  })
  .refine((centavos) => centavos !== 0, 'El ajuste no puede ser cero.');

/** A checkbox: present ("on") when checked, absent otherwise; also accepts booleans. */
export const checkboxField = z.preprocess((value) => value === true || value === 'on' || value === 'true', z.boolean());

/** A boolean sent explicitly (switches, activate/deactivate buttons). */
export const booleanField = z.preprocess((value) => (value === 'true' ? true : value === 'false' ? false : value), z.boolean());

export const idField = z.coerce.number({ error: 'Falta el identificador.' }).int().positive('Identificador inválido.');

export const noteField = z.string({ error: 'Escribe una nota.' }).trim().min(3, 'Escribe una nota que explique el movimiento (al menos 3 caracteres).').max(500, 'La nota puede tener como máximo 500 caracteres.');
