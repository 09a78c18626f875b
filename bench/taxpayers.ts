// The five lookups as the bench's load sends them: each request names another taxpayer of the
// simulator's population, cycling through every one of each kind (4,823 persons with a NIT in the
// default population), as production's lookups name a new person almost every time. A load that
// named one taxpayer over and over hid what a new identifier costs: V8 compiled the error texts'
// scrubbing pattern for that one and reused it (docs/performance.md, "A new taxpayer on every
// request"). A thousand were not enough either: V8 keeps a compiled pattern for a second or two,
// and at 50 connections a thousand taxpayers come round again within that.
import { membersWithTrait } from '../simulator/population';

export type BenchLookupName = 'renap' | 'rtu_nits' | 'cui_nit' | 'rtu' | 'omisos';

export interface BenchLookup {
  path: string;
  /** The JSON bodies sent in turn; the first names the population's sample member of its kind. */
  bodies: string[];
}

/** Each lookup's path and bodies: persons with a NIT, and for RTU by NIT a person, a company and an omiso each time. */
export function benchLookups(seed: number): Record<BenchLookupName, BenchLookup> {
  const individuals = membersWithTrait({ seed }, 'individual', Number.POSITIVE_INFINITY);
  const companies = membersWithTrait({ seed }, 'legalEntity', Number.POSITIVE_INFINITY);
  const omisos = membersWithTrait({ seed }, 'omiso', Number.POSITIVE_INFINITY);
  const byNit = individuals.map((person) => JSON.stringify({ nit: person.nit }));
  return {
    renap: { path: '/api/renap/buscar-cui', bodies: individuals.map((person) => JSON.stringify({ cui: person.cui })) },
    rtu_nits: {
      path: '/api/rtu/nits',
      bodies: individuals.map((person, index) => JSON.stringify({ nits: [person.nit, companies[index % companies.length]!.nit, omisos[index % omisos.length]!.nit] })),
    },
    cui_nit: { path: '/api/catalogos/cui-nit', bodies: byNit },
    rtu: { path: '/api/catalogos/rtu', bodies: byNit },
    omisos: { path: '/api/catalogos/omisos', bodies: byNit },
  };
}
