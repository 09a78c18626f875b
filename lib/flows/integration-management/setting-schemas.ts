import { z } from 'zod';
import { MAX_MOVEMENT_CENTAVOS, MAX_TARIFF_CENTAVOS } from '@/lib/core/integrations/schemas';

// An integration's name, tariff, low-balance threshold and declared purpose, and an amount of money
// to add, as this flow takes them, with the messages it answers with (createIntegration, setTariff,
// setLowBalanceAlert, setPurpose; a top-up request's amount in lib/flows/top-ups).
// They sit beside the flow, not in lib/core, because the flow itself answers with the words and
// flows cannot import presentation. The limits are core's facts.

// Money in integer centavos. The messages speak quetzales: a person reads them, not a program.
const WHOLE_CENTAVOS = 'Use como máximo dos decimales.';
export const tariffCentavosSchema = z
  .number()
  .int(WHOLE_CENTAVOS)
  .min(0, 'La tarifa no puede ser negativa.')
  .max(MAX_TARIFF_CENTAVOS, 'La tarifa máxima es Q 10,000.00 por consulta.');
export const lowBalanceAlertCentavosSchema = z
  .number()
  .int(WHOLE_CENTAVOS)
  .min(0, 'El umbral no puede ser negativo.')
  .max(MAX_MOVEMENT_CENTAVOS, 'El umbral máximo es Q 100,000,000.00.')
  .nullable();

/** The declared purpose of use: a sentence or two, required once set (an empty one is "not declared"). */
export const integrationPurposeSchema = z
  .string({ error: 'Escriba la finalidad declarada.' })
  .trim()
  .min(10, 'Describe la finalidad en al menos 10 caracteres (por ejemplo: verificar la identidad de clientes al abrir una cuenta).')
  .max(500, 'La finalidad puede tener como máximo 500 caracteres.');

/** Integration names travel in the x-integracion-login header and are compared lowercased. */
export const integrationNameSchema = z
  .string()
  .trim()
  .min(3, 'El nombre debe tener al menos 3 caracteres.')
  .max(64, 'El nombre puede tener como máximo 64 caracteres.')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Use solo letras, números, punto, guion y guion bajo, sin espacios.');

/** An amount of money to add (an initial balance, a top-up request's), in centavos. */
export const positiveCentavosSchema = z
  .number()
  .int(WHOLE_CENTAVOS)
  .positive('El monto debe ser mayor que cero.')
  .max(MAX_MOVEMENT_CENTAVOS, 'El monto máximo es Q 100,000,000.00.');
