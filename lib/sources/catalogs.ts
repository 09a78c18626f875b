// The catalogs the catalog source answers, declared once each (docs/sources.md, "Catalog source"):
// the source's operation, whether the query forwards a date of birth, how its result becomes the
// contract's record, and the contract's 200 body that carries it. Keyed by the catalog's name in
// its path (/api/catalogos/cui-nit), which lib/vocabulary/lookups.ts is held to by the compiler.
// The client (catalog-client.ts), the lookup's stages, bulk jobs and the OpenAPI document read it:
// a new catalog is one entry here beside its entry in the lookup catalogue (lib/README.md).
import type { z } from 'zod';
import { cuiNitSuccessSchema, omisosSuccessSchema, rtuSuccessSchema } from '../contract/envelopes';
import { normalizeCuiNit, normalizeOmisos, normalizeRtu, type CatalogAnswerMetadata } from './catalog-normalize';

export interface CatalogOperation<Result = unknown> {
  /** The source's operation, under CATALOG_BASE_URL. */
  sourcePath: `/${string}`;
  /** Whether the query forwards the integrator's date_of_birth (the source asks for it when it holds no copy). */
  sendsDateOfBirth: boolean;
  /** The source's `resultado` as the contract's record: total over JSON values (catalog-normalize.ts). */
  normalize: (result: unknown, metadata: CatalogAnswerMetadata) => Result;
  /** The contract's 200 body, `{data}` (lib/contract/envelopes.ts), as the OpenAPI document describes it. */
  success: z.ZodType;
}

export const CATALOG_OPERATIONS = {
  'cui-nit': { sourcePath: '/v2/consultas/identidad', sendsDateOfBirth: false, normalize: normalizeCuiNit, success: cuiNitSuccessSchema },
  rtu: { sourcePath: '/v2/consultas/ficha', sendsDateOfBirth: true, normalize: normalizeRtu, success: rtuSuccessSchema },
  omisos: { sourcePath: '/v2/consultas/cumplimiento', sendsDateOfBirth: false, normalize: normalizeOmisos, success: omisosSuccessSchema },
} as const satisfies Record<string, CatalogOperation>;

/** A catalog, by the name in its path. */
export type CatalogKind = keyof typeof CATALOG_OPERATIONS;

/** The contract's record each catalog answers. */
export type CatalogResultByKind = { [K in CatalogKind]: ReturnType<(typeof CATALOG_OPERATIONS)[K]['normalize']> };

export const CATALOG_KINDS = Object.keys(CATALOG_OPERATIONS) as CatalogKind[];
