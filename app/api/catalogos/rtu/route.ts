// POST /api/catalogos/rtu - the full RTU record of one taxpayer; billed at the integration's tariff.
import { catalogAnswer, catalogUnhandledAnswer } from '@/lib/surfaces/api/catalog-responses';
import { lookupRoute } from '@/lib/surfaces/api/route';
import { runCatalogLookup } from '@/lib/flows/lookups/catalog';

export const { POST, GET, PUT, PATCH, DELETE, OPTIONS } = lookupRoute(
  'rtu',
  async (context) => catalogAnswer(await runCatalogLookup({ ...context, catalog: 'rtu' }), context.requestId),
  catalogUnhandledAnswer,
);
