import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import type { CatalogOutcome } from '@/lib/flows/lookups/catalog-outcome';
import type { StoredAnswer } from '@/lib/core/idempotency/store';

/**
 * The answer a repeat with the same Idempotency-Key gets instead of running again, or null when a
 * repeat must run again. Stored: a 200 (the lookup was charged, or the tariff was zero), and the
 * source's final word on the data it was sent, which asking again would only repeat: 404 (no
 * result) and 400 (data rejected). Never stored: what the contract says to retry (502, the 429s,
 * the 402s: "the query did not run"), the source refusing the service itself (401, 403: support
 * fixes those and the retry must then work), 500s, and every refusal before the source, which
 * never claims the key at all. The body text is the one catalogAnswer writes (lib/surfaces/api), so a
 * replay is the same bytes.
 */
export function replayableAnswer(outcome: CatalogOutcome): StoredAnswer | null {
  if (outcome.kind === 'success') return { status: 200, body: JSON.stringify({ data: outcome.data }) };
  if (outcome.kind !== 'source_failure') return null;
  if (outcome.failure === 'not_found') return { status: 404, body: JSON.stringify({ message: CATALOG_MESSAGES.notFound }) };
  if (outcome.failure === 'data_rejected') return { status: 400, body: JSON.stringify({ message: CATALOG_MESSAGES.sourceRejectedData }) };
  return null;
}
