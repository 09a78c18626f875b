// Query records made as the catalog pipeline makes them, without a source: for tests that read
// records (the console's and the portal's) and need some of each outcome.
import { placeHold, settleHold } from '@/lib/core/billing/holds';
import type { TestIntegration } from '../conformance/harness';

/**
 * A compliance (omisos) query of `owner` with this request id: its tariff held, then captured for a
 * 200 or released for anything else, which is recorded as the catalog source's 503.
 */
export async function settledCatalogQuery(owner: TestIntegration, requestId: string, outcome: { status: number; nit?: string; cui?: string }): Promise<void> {
  const hold = await placeHold(owner.id, requestId);
  if (!hold) throw new Error('the balance covers the hold');
  const ok = outcome.status === 200;
  await settleHold(hold, ok, {
    integrationId: owner.id,
    lookup: 'omisos',
    httpStatus: outcome.status,
    responseTimeMs: 40,
    nit: outcome.nit ?? null,
    cui: outcome.cui ?? null,
    errorMessage: ok ? null : 'catalog source answered HTTP 503 (not a success)',
    failure: ok ? null : { kind: 'status', status: 503 },
    requestId,
  });
}
