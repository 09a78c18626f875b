import type { StatementCompanion } from '@/db/compiled-statement';
import type { LookupKind } from '@/db/schema';
import { prepareConstancia, type PreparedConstancia } from '@/lib/core/constancias/issue';
import type { AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import { logger } from '@/lib/platform/logging/logger';

/**
 * A receipt a lookup was asked for (lib/surfaces/api/constancia-answer.ts): the flow asks it for
 * its rows just before the statement that records the outcome, which writes them with its record
 * or not at all, without a round trip of its own (docs/performance.md, "Constancias"), and tells
 * the companion whether it was written (its tariff covered).
 */
export interface LookupReceipt<Outcome> {
  /** The receipt's rows for the statement that records `outcome`, or none (not every answer gets one). */
  companionFor(outcome: Outcome, integration: AuthenticatedIntegration): Promise<StatementCompanion | undefined>;
}

/**
 * Signs the receipt of an answer for the statement that records it, or gives none when its
 * signing fails: the answer stands (charged and recorded as usual), only its receipt is missing.
 */
export async function signedReceipt(
  integration: AuthenticatedIntegration,
  asked: { lookup: LookupKind; requestId: string; requestBody: unknown },
  answer: { status: number; body: string },
): Promise<PreparedConstancia | undefined> {
  try {
    return await prepareConstancia({
      integrationId: integration.id,
      integrationLogin: integration.nombre,
      lookup: asked.lookup,
      requestId: asked.requestId,
      requestBody: asked.requestBody,
      status: answer.status,
      responseBody: answer.body,
    });
  } catch (error) {
    logger('constancias').error({ err: error, lookup: asked.lookup }, 'signing a constancia failed');
    return undefined;
  }
}
