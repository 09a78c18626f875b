import { z } from 'zod';

/** Integration names travel in the x-integracion-login header and are compared lowercased. */
export const integrationNameSchema = z
  .string()
  .trim()
  .min(3, 'El nombre debe tener al menos 3 caracteres.')
  .max(64, 'El nombre puede tener como máximo 64 caracteres.')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Usa solo letras, números, punto, guion y guion bajo, sin espacios.');

/** Money in integer centavos; a tariff is at most Q 10,000.00 per query. */
export const tariffCentavosSchema = z.number().int('El monto debe ser un número entero de centavos.').min(0).max(1_000_000);
export const positiveCentavosSchema = z.number().int('El monto debe ser un número entero de centavos.').positive().max(100_000_000_00);
export const signedCentavosSchema = z
  .number()
  .int('El monto debe ser un número entero de centavos.')
  .refine((value) => value !== 0, 'El ajuste no puede ser cero.')
  .refine((value) => Math.abs(value) <= 100_000_000_00, 'El ajuste es demasiado grande.');
export const ledgerNoteSchema = z.string().trim().min(3, 'Escribe una nota que explique el movimiento.').max(500);
