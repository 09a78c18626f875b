// The five lookups as the bench's load sends them: each request names another taxpayer of the
// simulator's population, cycling through a thousand of each kind, as production's lookups name a
// new person almost every time. A load that named one taxpayer over and over hid what a new
// identifier costs: V8 compiled the error texts' scrubbing pattern once for the whole run instead
// of once a lookup, 0.4 ms of CPU each (docs/performance.md, "A new taxpayer on every request").
import { membersWithTrait } from '../simulator/population';

/** How many taxpayers of each kind the load cycles through. */
export const BENCH_TAXPAYERS = 1_000;

export type BenchLookupName = 'renap' | 'rtu_nits' | 'cui_nit' | 'rtu' | 'omisos';

export interface BenchLookup {
  path: string;
  /** The JSON bodies sent in turn; the first names the population's sample member of its kind. */
  bodies: string[];
}

/** Each lookup's path and bodies: persons with a NIT, and for RTU by NIT a person, a company and an omiso each time. */
export function benchLookups(seed: number): Record<BenchLookupName, BenchLookup> {
  const individuals = membersWithTrait({ seed }, 'individual', BENCH_TAXPAYERS);
  const companies = membersWithTrait({ seed }, 'legalEntity', BENCH_TAXPAYERS);
  const omisos = membersWithTrait({ seed }, 'omiso', BENCH_TAXPAYERS);
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
