// POST /api/catalogos/omisos - a taxpayer's compliance status (unfiled returns, coercive collection); billed at the integration's tariff.
import { catalogAnswer, catalogUnhandledAnswer } from '@/lib/surfaces/api/catalog-responses';
import { lookupRoute } from '@/lib/surfaces/api/route';
import { runCatalogLookup } from '@/lib/flows/lookups/catalog';

export const { POST, GET, PUT, PATCH, DELETE, OPTIONS } = lookupRoute(
  'omisos',
  async (context) => catalogAnswer(await runCatalogLookup({ ...context, catalog: 'omisos' }), context.requestId),
  catalogUnhandledAnswer,
);
