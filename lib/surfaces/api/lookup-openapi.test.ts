// The lookups' descriptions stand for the contract's five lookups, and a path is built from a
// description alone: what it says (a flag, a limit, the date of birth) is what the path says.
import { describe, expect, it } from 'vitest';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import { CONTRACT_FLAG_NAMES, LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import { LOOKUP_OPERATIONS, lookupPath, type CatalogLookup, type RegistryLookup } from './lookup-openapi';

type Operation = {
  operationId: string;
  description: string;
  responses: Record<string, { content?: Record<string, { examples?: Record<string, unknown> }> }>;
};
const operationOf = (path: Record<string, unknown>) => path.post as Operation;

describe('the lookups in the OpenAPI document', () => {
  it('describe each of the contract\'s five lookups once, in its order, at its path and with its flag', () => {
    const kinds = Object.keys(LOOKUP_PATHS) as Array<keyof typeof LOOKUP_PATHS>;
    expect(LOOKUP_OPERATIONS.map((lookup) => `/api${lookup.path}`)).toEqual(kinds.map((kind) => LOOKUP_PATHS[kind]));
    expect(LOOKUP_OPERATIONS.map((lookup) => lookup.flag)).toEqual(kinds.map((kind) => CONTRACT_FLAG_NAMES[LOOKUP_FLAGS[kind]]));
    expect(new Set(LOOKUP_OPERATIONS.map((lookup) => lookup.operationId)).size).toBe(LOOKUP_OPERATIONS.length);
  });

  it('build a registry\'s path from its description: its flag and limit, and only the envelope answers it lists', () => {
    const renap = LOOKUP_OPERATIONS.find((lookup): lookup is RegistryLookup => lookup.path === '/renap/buscar-cui')!;
    const operation = operationOf(lookupPath({ ...renap, flag: 'is_example_enabled', perMinute: 7, envelopeAnswers: { '404': 'Sin registro.' } }));
    expect(operation.operationId).toBe('searchRenapByCui');
    expect(operation.description).toContain('Requiere la bandera is_example_enabled. Límite propio: 7 por minuto');
    expect(operation.responses['404']).toMatchObject({ description: 'Sin registro.' });
    expect(operation.responses['4XX']).toBeUndefined();
  });

  it('build a catalog\'s path from its description: the date of birth\'s text only where the catalog reads it', () => {
    const rtu = LOOKUP_OPERATIONS.find((lookup): lookup is CatalogLookup => lookup.path === '/catalogos/rtu')!;
    const invalidExamples = (lookup: CatalogLookup) => Object.keys(operationOf(lookupPath(lookup)).responses['400']!.content!['application/json']!.examples!);
    expect(invalidExamples(rtu)).toContain('date_of_birth_not_text');
    expect(invalidExamples({ ...rtu, readsDateOfBirth: false })).not.toContain('date_of_birth_not_text');
    expect(operationOf(lookupPath({ ...rtu, readsDateOfBirth: false })).description).toContain('Esta consulta ignora date_of_birth.');
  });
});
