import type { StatementCompanion } from '@/db/compiled-statement';
import type { AuthenticatedIntegration } from '@/lib/core/integrations/directory';

/**
 * A receipt a lookup was asked for (lib/surfaces/api/constancia-answer.ts): the flow asks it for
 * its CTE just before the statement that records the outcome, and tells it once that statement
 * committed, so the receipt is written with its record or not at all, without a round trip of its
 * own (docs/performance.md, "Constancias").
 */
export interface LookupReceipt<Outcome> {
  /** The receipt's rows for the statement that records `outcome`, or none (not every answer gets one). */
  companionFor(outcome: Outcome, integration: AuthenticatedIntegration): Promise<StatementCompanion | undefined>;
  /** The statement that carried the companion committed. */
  written(): void;
}
