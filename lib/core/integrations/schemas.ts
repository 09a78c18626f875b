import { z } from 'zod';

/** Integration names travel in the x-integracion-login header and are compared lowercased. */
export const integrationNameSchema = z
  .string()
  .trim()
  .min(3, 'El nombre debe tener al menos 3 caracteres.')
  .max(64, 'El nombre puede tener como máximo 64 caracteres.')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Use solo letras, números, punto, guion y guion bajo, sin espacios.');

/** The largest tariff (Q 10,000.00 per query) and the largest single movement (Q 100,000,000.00). */
export const MAX_TARIFF_CENTAVOS = 1_000_000;
export const MAX_MOVEMENT_CENTAVOS = 100_000_000_00;

// Money in integer centavos. The messages speak quetzales: a person reads them, not a program.
const WHOLE_CENTAVOS = 'Use como máximo dos decimales.';
export const tariffCentavosSchema = z
  .number()
  .int(WHOLE_CENTAVOS)
  .min(0, 'La tarifa no puede ser negativa.')
  .max(MAX_TARIFF_CENTAVOS, 'La tarifa máxima es Q 10,000.00 por consulta.');
export const positiveCentavosSchema = z
  .number()
  .int(WHOLE_CENTAVOS)
  .positive('El monto debe ser mayor que cero.')
  .max(MAX_MOVEMENT_CENTAVOS, 'El monto máximo es Q 100,000,000.00.');
export const signedCentavosSchema = z
  .number()
  .int(WHOLE_CENTAVOS)
  .refine((value) => value !== 0, 'El ajuste no puede ser cero.')
  .refine((value) => Math.abs(value) <= MAX_MOVEMENT_CENTAVOS, 'El ajuste máximo es de Q 100,000,000.00, para sumar o para restar.');
export const lowBalanceAlertCentavosSchema = z
  .number()
  .int(WHOLE_CENTAVOS)
  .min(0, 'El umbral no puede ser negativo.')
  .max(MAX_MOVEMENT_CENTAVOS, 'El umbral máximo es Q 100,000,000.00.')
  .nullable();
export const ledgerNoteSchema = z.string().trim().min(3, 'Escriba una nota que explique el movimiento.').max(500);

/** The declared purpose of use: a sentence or two, required once set (an empty one is "not declared"). */
export const integrationPurposeSchema = z
  .string({ error: 'Escriba la finalidad declarada.' })
  .trim()
  .min(10, 'Describe la finalidad en al menos 10 caracteres (por ejemplo: verificar la identidad de clientes al abrir una cuenta).')
  .max(500, 'La finalidad puede tener como máximo 500 caracteres.');
