import { z } from 'zod';

// An integration's name and the balance's movements as lib/core/billing/ledger.ts validates them.
// Their messages are still written here because the console's integration actions read these
// schemas and topUp/adjustBalance from lib/core and show the messages as they come: they move up
// with those actions' surface (.core-words-known.json lists this file until then). The tariff, the
// low-balance threshold and the declared purpose are the flow's: lib/flows/integration-management/setting-schemas.ts.

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
export const ledgerNoteSchema = z.string().trim().min(3, 'Escriba una nota que explique el movimiento.').max(500);
