import { z } from 'zod';
import { DETAIL_FIELDS } from './details-schemas';

/**
 * The details as console forms send them: each as text, empty when not registered. The service
 * (parseIntegrationDetails) validates them, so a form shows the same messages as the CLI.
 */
export const detailsFormFields = Object.fromEntries(DETAIL_FIELDS.map((field) => [field, z.string().max(2_000, 'Demasiado texto.').default('')])) as Record<
  (typeof DETAIL_FIELDS)[number],
  z.ZodDefault<z.ZodString>
>;
