// POST /api/catalogos/{catalogo} - every catalog of the lookup catalogue (lib/vocabulary/lookups.ts):
// /catalogos/cui-nit, /catalogos/rtu and /catalogos/omisos; billed at the integration's tariff.
import { catalogRoutes } from '@/lib/surfaces/api/catalog-route';

export const { POST, GET, PUT, PATCH, DELETE, OPTIONS } = catalogRoutes();
