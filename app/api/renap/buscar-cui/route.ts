// POST /api/renap/buscar-cui - a person in the national person registry, by CUI.
import { lookupRoute } from '@/lib/surfaces/api/route';
import { registryFailedAnswer, renapAnswer } from '@/lib/surfaces/api/registry-responses';
import { runRenapLookup } from '@/lib/flows/lookups/registries';

export const { POST, GET, PUT, PATCH, DELETE, OPTIONS } = lookupRoute('renap', runRenapLookup, renapAnswer, registryFailedAnswer);
