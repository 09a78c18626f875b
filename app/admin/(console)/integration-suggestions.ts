'use server';

import { z } from 'zod';
import { consoleAction } from '@/lib/surfaces/console/action';
import { suggestIntegrationsNamed } from '@/lib/surfaces/console/integrations';

const suggestSchema = z.object({ texto: z.string().trim().max(200).default('') });

/**
 * Up to 8 integrations whose name contains what was typed: the suggestions of every field where
 * people type an integration ("Verificar ahora", the records list's and the audit's filters).
 * Open to support staff, who read every integration's name anyway.
 */
export const suggestIntegrations = consoleAction({ role: 'support', schema: suggestSchema }, async (input) => ({
  ok: true,
  data: await suggestIntegrationsNamed(input.texto),
}));
