// What a submitted list becomes before anything runs: each identifier checked with the
// same rules the API already has (lib/platform/guatemala/identifiers), duplicates found by the normalized
// form the records search uses, both set aside free with their reason.
import { isValidClassicNit, isValidCui, isValidNit, normalizeCui, normalizeNit } from '@/lib/platform/guatemala/identifiers';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import { normalizeTaxIdentifier } from '@/lib/core/sealing/search-keys';

export { MAX_BULK_IDENTIFIERS } from './limits';

export type SetAsideReason = 'nit_invalido' | 'cui_invalido' | 'duplicado';

export type PlannedItem =
  /** Sent to the catalog as `nit` or `cui`, exactly as the integrator wrote it. */
  | { kind: 'lookup'; identifier: string; field: 'nit' | 'cui' }
  | { kind: 'set_aside'; identifier: string; reason: SetAsideReason };

/**
 * The field a catalog gets an identifier in, or why it cannot be sent. /catalogos/cui-nit resolves
 * either way: 13 digits are a CUI, anything else a NIT. The RTU and omisos catalogs look up NITs,
 * and a CUI is a person's NIT since SAT-DSI-393-2025 (isValidNit accepts it).
 */
export function fieldFor(catalog: CatalogName, identifier: string): { field: 'nit' | 'cui' } | { reason: SetAsideReason } {
  if (catalog === 'cui_nit' && /^[0-9]{13}$/.test(normalizeCui(identifier))) {
    return isValidCui(identifier) ? { field: 'cui' } : { reason: 'cui_invalido' };
  }
  const valid = catalog === 'cui_nit' ? isValidClassicNit(identifier) : isValidNit(identifier);
  return valid ? { field: 'nit' } : { reason: 'nit_invalido' };
}

/** The job's items in the order sent: the first of equal identifiers runs, the later ones are set aside. */
export function planItems(catalog: CatalogName, identifiers: readonly string[]): PlannedItem[] {
  const seen = new Set<string>();
  return identifiers.map((identifier): PlannedItem => {
    const target = fieldFor(catalog, identifier);
    if ('reason' in target) return { kind: 'set_aside', identifier, reason: target.reason };
    const normalized = normalizeTaxIdentifier(target.field === 'cui' ? normalizeCui(identifier) : normalizeNit(identifier)) ?? identifier;
    if (seen.has(normalized)) return { kind: 'set_aside', identifier, reason: 'duplicado' };
    seen.add(normalized);
    return { kind: 'lookup', identifier, field: target.field };
  });
}
