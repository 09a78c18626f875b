// A found item's constancia de consulta, for a job sent with constancias: true (or a watch list's
// run that asks for them): the same receipt a single lookup gets, over the same body a single
// lookup answers (replayableAnswer: the bytes catalogAnswer writes), written in the item's
// settlement statement with its charge, its record and its row.
import type { StatementCompanion } from '@/db/compiled-statement';
import { prepareConstancia, type IssuedConstancia } from '@/lib/core/constancias/issue';
import type { AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import type { CatalogOutcome } from '@/lib/flows/lookups/catalog';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import type { LookupReceipt } from '@/lib/flows/lookups/receipt';
import { replayableAnswer } from '@/lib/flows/lookups/replayable-answer';
import { logger } from '@/lib/platform/logging/logger';

const log = logger('constancias');

export class ItemReceipt implements LookupReceipt<CatalogOutcome> {
  /** The receipt prepared for the item's answer: its id goes on the item's row, in the same statement. */
  issued: IssuedConstancia | undefined;

  constructor(
    private readonly catalog: CatalogName,
    private readonly requestId: string,
    /** What the item's lookup sent, as a single lookup's body. */
    private readonly requestBody: unknown,
  ) {}

  async companionFor(outcome: CatalogOutcome, integration: AuthenticatedIntegration): Promise<StatementCompanion | undefined> {
    // Only what the registry found: a row not found, failed or refused has nothing to prove.
    const answer = outcome.kind === 'success' ? replayableAnswer(outcome) : null;
    if (!answer || !integration.constanciasEnabled) return undefined;
    try {
      const prepared = await prepareConstancia({
        integrationId: integration.id,
        integrationLogin: integration.nombre,
        lookup: this.catalog,
        requestId: this.requestId,
        requestBody: this.requestBody,
        status: answer.status,
        responseBody: answer.body,
      });
      this.issued = prepared.issued;
      return prepared.companion;
    } catch (error) {
      // The item is answered and charged as usual; its row simply has no receipt.
      log.error({ err: error, lookup: this.catalog }, 'signing a bulk item’s constancia failed');
      return undefined;
    }
  }

  written(): void {}
}
