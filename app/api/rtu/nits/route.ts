// POST /api/rtu/nits - up to 50 taxpayers in the unified tax registry, by NIT.
import { lookupRoute } from '@/lib/surfaces/api/route';
import { registryFailedAnswer, rtuNitsAnswer } from '@/lib/surfaces/api/registry-responses';
import { runRtuNitsLookup } from '@/lib/flows/lookups/registries';

export const { POST, GET, PUT, PATCH, DELETE, OPTIONS } = lookupRoute('rtu_nits', runRtuNitsLookup, rtuNitsAnswer, registryFailedAnswer);
