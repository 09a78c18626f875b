// POST /api/catalogos/cui-nit - the NIT for a CUI, or the CUI for a NIT; billed at the integration's tariff.
import { catalogAnswer, catalogUnhandledAnswer } from '@/lib/surfaces/api/catalog-responses';
import { lookupRoute } from '@/lib/surfaces/api/route';
import { runCatalogLookup } from '@/lib/flows/lookups/catalog';

export const { POST, GET, PUT, PATCH, DELETE, OPTIONS } = lookupRoute(
  'cui_nit',
  async (context) => catalogAnswer(await runCatalogLookup({ ...context, catalog: 'cui_nit' }), context.requestId),
  catalogUnhandledAnswer,
);
