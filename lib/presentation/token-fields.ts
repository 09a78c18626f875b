import { z } from 'zod';
import { OVERLAP_PRESET_NAMES, type OverlapPreset } from '@/lib/core/credentials/token-state';

// The fields of the token and allow-list forms, as the console's and the portal's actions read
// them: one set of words for what was typed wrong, whoever typed it (the same code paths).

/** A new token's name. */
export const tokenLabelField = z
  .string({ error: 'Escriba un nombre para el token.' })
  .trim()
  .min(1, 'Escriba un nombre para el token (por ejemplo «Producción»).')
  .max(60, 'El nombre admite hasta 60 caracteres.');

/** The end of a day in Guatemala (UTC-6 all year), for "vence el" dates typed in a form; empty: no expiry. */
export const tokenExpiryDateField = z.preprocess(
  (value) => (value === '' || value === undefined ? undefined : value),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Escriba la fecha como AAAA-MM-DD.')
    .transform((day) => new Date(`${day}T23:59:59.999-06:00`))
    .refine((date) => !Number.isNaN(date.getTime()) && date.getTime() > Date.now(), 'El vencimiento debe ser una fecha futura.')
    .optional(),
);

/** How long a rotated token keeps working (OVERLAP_PRESETS); empty: none. */
export const overlapField = z.preprocess(
  (value) => (value === '' || value === undefined ? 'none' : value),
  z.enum(OVERLAP_PRESET_NAMES as [OverlapPreset, ...OverlapPreset[]], { error: 'Elija cuánto tiempo sigue funcionando el token anterior.' }),
);

/** The allow-list as typed (lib/core/credentials/allow-list.ts reads its entries). */
export const allowListTextField = z.string().max(10_000, 'Demasiado texto.').default('');
