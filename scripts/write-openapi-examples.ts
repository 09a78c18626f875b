// npm run openapi:examples: writes lib/surfaces/api/success-examples.json, the example 200 answer of
// each lookup shown in /docs and in the OpenAPI document. Each is a real answer: the bundled
// simulator's fictitious population (no real person) asked through the gateway's own upstream
// clients and normalizers, wrapped by the gateway's own response builders. Run it again when a
// response shape changes; lib/surfaces/api/success-examples.test.ts fails until it is.
import fs from 'node:fs';
import path from 'node:path';
import { catalogAnswer } from '@/lib/surfaces/api/catalog-responses';
import { renapAnswer, rtuNitsAnswer } from '@/lib/surfaces/api/registry-responses';
import type { LookupAnswer } from '@/lib/surfaces/api/responses';
import { allSettings } from '@/lib/root/settings';
import { buildSourceClients } from '@/lib/sources';
import { samplePopulation, startSimulator, DEFAULT_SIMULATOR_SEED } from '@/simulator';
import type { LookupPath, SuccessExamples } from '@/lib/surfaces/api/success-examples';
import { CATALOG_LOOKUPS } from '@/db/schema';
import { catalogPathName, LOOKUP_PATHS } from '@/lib/vocabulary/lookups';

const TARGET = path.resolve('lib/surfaces/api/success-examples.json');

/** The five example answers, as the gateway answers them today. */
export async function generateSuccessExamples(): Promise<SuccessExamples> {
  const simulator = await startSimulator({ port: 0 });
  try {
    const clients = buildSourceClients({
      ...allSettings(),
      RENAP_BASE_URL: `${simulator.url}/renap`,
      RTU_BASE_URL: `${simulator.url}/rtu`,
      CATALOG_BASE_URL: `${simulator.url}/catalog`,
    });
    const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });
    const person = sample.individual;
    const company = sample.legalEntity;
    const body = (answer: LookupAnswer) => JSON.parse(answer.body ?? 'null') as unknown;
    const value = <T>(result: { ok: true; value: T } | { ok: false; detail: string }): T => {
      if (!result.ok) throw new Error(`the simulator did not answer: ${result.detail}`);
      return result.value;
    };

    const renap = await clients.renap.searchByCui(person.cui!);
    if (!renap.ok) throw new Error(renap.detail);
    const rtu = await clients.rtu.searchByNits([person.nit, company.nit]);
    if (!rtu.ok) throw new Error(`the simulator's RTU did not answer: ${rtu.reason}`);
    const query = { nit: person.nit, actualizado: false };
    const examples: Record<string, SuccessExamples[LookupPath]> = {
      '/renap/buscar-cui': { request: { cui: person.cui! }, response: body(renapAnswer({ kind: 'answered', ...renap }, 'req_example')) },
      '/rtu/nits': {
        request: { nits: [person.nit, company.nit] },
        response: body(rtuNitsAnswer({ kind: 'found', records: rtu.records, requested: 2 }, 'req_example')),
      },
    };
    for (const catalog of CATALOG_LOOKUPS) {
      const data = value(await clients.catalog.lookup(catalogPathName(catalog), query));
      examples[LOOKUP_PATHS[catalog].slice('/api'.length) as LookupPath] = { request: query, response: body(catalogAnswer({ kind: 'success', data } as never, 'req_example')) };
    }
    return examples as SuccessExamples;
  } finally {
    await simulator.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(TARGET, `${JSON.stringify(await generateSuccessExamples(), null, 2)}\n`);
  console.log(`example answers written to ${path.relative(process.cwd(), TARGET)}`);
}
