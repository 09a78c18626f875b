import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTableColumns } from 'drizzle-orm';
import { integrations } from '@/db/schema';
import { isCatalogLookup, LOOKUP_KINDS } from '@/db/schema/query-records';
import { CATALOGS_BY_PATH_NAME, catalogPathName, LOOKUP_CATALOGUE, LOOKUP_FLAGS, LOOKUP_LIMITED_ROUTES, LOOKUP_PATHS, LOOKUPS } from './lookups';

describe('the lookup catalogue', () => {
  it('declares every recorded lookup once, in the enum’s order', () => {
    expect(Object.keys(LOOKUP_CATALOGUE)).toEqual([...LOOKUP_KINDS]);
    expect(LOOKUPS).toEqual([...LOOKUP_KINDS]);
  });

  it('gives each lookup its own path, operationId and colour', () => {
    for (const field of ['path', 'operationId', 'colour', 'flag', 'label'] as const) {
      const values = LOOKUPS.map((lookup) => LOOKUP_CATALOGUE[lookup][field]);
      expect(new Set(values).size, field).toBe(values.length);
    }
  });

  it('names each flag as the integrations table’s column behind it', () => {
    const columns = getTableColumns(integrations);
    for (const lookup of LOOKUPS) {
      const column = columns[LOOKUP_FLAGS[lookup]];
      expect(column?.name, lookup).toBe(LOOKUP_CATALOGUE[lookup].flag);
      expect(column?.dataType, lookup).toBe('boolean');
    }
  });

  it('has the catalogs, and only they, spend the shared catalog limit and go by /api/catalogos/<name>', () => {
    for (const lookup of LOOKUPS) {
      expect(LOOKUP_LIMITED_ROUTES[lookup] === 'catalogs', lookup).toBe(isCatalogLookup(lookup));
      expect(LOOKUP_PATHS[lookup].startsWith('/api/catalogos/'), lookup).toBe(isCatalogLookup(lookup));
    }
    expect(CATALOGS_BY_PATH_NAME).toEqual({ 'cui-nit': 'cui_nit', rtu: 'rtu', omisos: 'omisos' });
    expect(catalogPathName('cui_nit')).toBe('cui-nit');
  });

  it('has a route for every path: its own for a registry, the catalogs’ one for a catalog', () => {
    for (const lookup of LOOKUPS) {
      const route = isCatalogLookup(lookup) ? 'app/api/catalogos/[catalogo]' : path.join('app', LOOKUP_PATHS[lookup]);
      expect(existsSync(path.join(route, 'route.ts')), LOOKUP_PATHS[lookup]).toBe(true);
    }
  });
});
