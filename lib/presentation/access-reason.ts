// Why someone needs identifiers in full, as the console, the portal and the CLI ask it: asked for
// every reveal and full export, kept with the entry (lib/core/personal-data/access-log.ts).
import { z } from 'zod';
import { REVEAL_REASON_MAX_LENGTH } from '@/lib/core/personal-data/access-log';

/** Why someone needs identifiers in full: asked for every reveal and full export, kept with the entry. */
export const accessReasonSchema = z
  .string({ error: 'Escriba el motivo.' })
  .trim()
  .min(3, 'Escriba el motivo o el número de ticket (al menos 3 caracteres).')
  .max(REVEAL_REASON_MAX_LENGTH, `El motivo puede tener como máximo ${REVEAL_REASON_MAX_LENGTH} caracteres.`);
