// A found item's constancia de consulta, for a job sent with constancias: true (or a watch list's
// run that asks for them): the same receipt a single lookup gets, over the same body a single
// lookup answers (replayableAnswer: the bytes catalogAnswer writes), written in the item's
// settlement statement with its charge, its record and its row.
import type { StatementCompanion } from '@/db/compiled-statement';
import type { IssuedConstancia } from '@/lib/core/constancias/issue';
import type { AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import type { CatalogOutcome } from '@/lib/flows/lookups/catalog';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import { signedReceipt, type LookupReceipt } from '@/lib/flows/lookups/receipt';
import { replayableAnswer } from '@/lib/flows/lookups/replayable-answer';

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
    // Should its signing fail, the item is answered and charged as usual; its row has no receipt.
    const prepared = await signedReceipt(integration, { lookup: this.catalog, requestId: this.requestId, requestBody: this.requestBody }, answer);
    this.issued = prepared?.issued;
    return prepared?.companion;
  }
}
