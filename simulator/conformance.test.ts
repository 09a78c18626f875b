// The bar: the normalized answers for 1,000 random members of the population all
// validate against the contract schemas, and agree with what the population holds.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cuiNitResultadoSchema,
  omisosResultadoSchema,
  rtuResultadoSchema,
  type CuiNitResultado,
  type OmisosResultado,
  type RtuResultado,
} from '../lib/contract/catalog';
import { SIMULATOR_DEV_CREDENTIALS } from '../lib/sources/settings';
import {
  CATALOG_SOURCE_PATHS,
  catalogRequestBody,
  createCatalogClient,
  interpretCatalogAnswer,
  type CatalogKind,
  type CatalogQuery,
  type CatalogResultByKind,
} from '../lib/sources/catalog-client';
import type { SourceResult } from '../lib/sources/outcomes';
import { createRenapClient } from '../lib/sources/renap-client';
import { createRtuClient } from '../lib/sources/rtu-client';
import { createCatalogUpstream } from './catalog';
import { createPopulation, type Taxpayer } from './population';
import { createRandom } from './random';
import { DEFAULT_SIMULATOR_SEED, startSimulator, type RunningSimulator } from './server';

const MEMBERS = 1_000;
const HTTP_MEMBERS = 150;
const CONCURRENCY = 16;
const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });

let simulator: RunningSimulator;
beforeAll(async () => {
  // No online latency: this is about shapes, not timing.
  simulator = await startSimulator({ port: 0, onlineLatencyMs: 0 });
});
afterAll(async () => {
  await simulator.close();
});

async function inBatches<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += CONCURRENCY) {
    await Promise.all(items.slice(start, start + CONCURRENCY).map(work));
  }
}

type Answers = [SourceResult<CuiNitResultado>, SourceResult<RtuResultado>, SourceResult<OmisosResultado>];

/** Half by NIT, half by CUI where there is one; the RTU query brings the date when the source needs it. */
function queriesFor(member: Taxpayer): { common: CatalogQuery; rtu: CatalogQuery } {
  const common: CatalogQuery =
    member.cui !== null && member.index % 2 === 0 ? { cui: member.cui, actualizado: false } : { nit: member.nit, actualizado: member.index % 5 === 0 };
  return { common, rtu: { ...common, dateOfBirth: member.sourceHoldsCopy ? undefined : member.dateOfBirth } };
}

/** Everything wrong with the three normalized answers of one member; [] when all is well. */
function problemsOf(member: Taxpayer, [cuiNit, rtu, omisos]: Answers, tally: Record<'individual' | 'juridica' | 'null', number>): string[] {
  const problems: string[] = [];
  for (const [name, result, schema] of [
    ['cui-nit', cuiNit, cuiNitResultadoSchema],
    ['rtu', rtu, rtuResultadoSchema],
    ['omisos', omisos, omisosResultadoSchema],
  ] as const) {
    if (!result.ok) {
      problems.push(`member ${member.index} ${name}: ${result.failure} ${result.detail}`);
      continue;
    }
    const validation = schema.safeParse(result.value);
    if (!validation.success) problems.push(`member ${member.index} ${name}: ${validation.error.message}`);
  }
  if (cuiNit.ok) tally[cuiNit.value.tipoPersona ?? 'null'] += 1;
  if (rtu.ok && member.kind === 'individual') {
    if (rtu.value.persona === null) problems.push(`member ${member.index}: individual without persona`);
    else if (!member.quirks.includes('no_birth_date') && rtu.value.persona.fechaNacimiento !== member.person?.birthDate) {
      problems.push(`member ${member.index}: fechaNacimiento ${rtu.value.persona.fechaNacimiento} instead of ${member.person?.birthDate}`);
    }
  }
  if (rtu.ok && member.kind === 'legal_entity' && (rtu.value.persona !== null || rtu.value.empresa === null)) {
    problems.push(`member ${member.index}: legal entity without empresa`);
  }
  if (omisos.ok && !member.quirks.includes('no_compliance_flags')) {
    if (omisos.value.tieneIncumplimientos !== member.omissions.length > 0) problems.push(`member ${member.index}: tieneIncumplimientos wrong`);
    if (omisos.value.tieneProcesoCoactivo !== member.coerciveCollection) problems.push(`member ${member.index}: tieneProcesoCoactivo wrong`);
  }
  return problems;
}

function randomMembers(count: number, seed: number): Taxpayer[] {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => population.member(random.int(0, population.size - 1)));
}

describe('population conformance', () => {
  it(`normalizes the answers for ${MEMBERS} random members into schema-valid catalog records`, () => {
    // The simulator's catalog protocol, minus the socket: the same bytes the HTTP test below
    // receives, so a thousand members (three queries each) take a second, not a minute.
    const upstream = createCatalogUpstream({ population, clientId: 'unused', clientSecret: 'unused' });
    const exchange = <K extends CatalogKind>(kind: K, query: CatalogQuery): SourceResult<CatalogResultByKind[K]> => {
      const { answer } = upstream.handle(CATALOG_SOURCE_PATHS[kind], JSON.parse(JSON.stringify(catalogRequestBody(kind, query))), new Date());
      const text = answer.kind === 'json' ? JSON.stringify(answer.body) : answer.body;
      return interpretCatalogAnswer(kind, answer.status, text);
    };
    const tally = { individual: 0, juridica: 0, null: 0 };
    const problems = randomMembers(MEMBERS, 42).flatMap((member) => {
      const { common, rtu } = queriesFor(member);
      return problemsOf(member, [exchange('cui-nit', common), exchange('rtu', rtu), exchange('omisos', common)], tally);
    });
    expect(problems).toEqual([]);
    // The population exercises both person types and the unrecognized or missing case.
    expect(tally.individual).toBeGreaterThan(0);
    expect(tally.juridica).toBeGreaterThan(0);
    expect(tally.null).toBeGreaterThan(0);
  });

  it(`gets the same over HTTP through the client for ${HTTP_MEMBERS} of them`, async () => {
    const catalog = createCatalogClient({
      baseUrl: `${simulator.url}/catalog`,
      clientId: SIMULATOR_DEV_CREDENTIALS.catalogClientId,
      clientSecret: SIMULATOR_DEV_CREDENTIALS.catalogClientSecret,
      timeoutMs: 10_000,
    });
    const tally = { individual: 0, juridica: 0, null: 0 };
    const problems: string[] = [];
    await inBatches(randomMembers(HTTP_MEMBERS, 42), async (member) => {
      const { common, rtu } = queriesFor(member);
      const answers = await Promise.all([catalog.lookupCuiNit(common), catalog.lookupRtu(rtu), catalog.lookupOmisos(common)]);
      problems.push(...problemsOf(member, answers, tally));
    });
    expect(problems).toEqual([]);
  });

  it('answers the person and RTU registries for population members', async () => {
    const renap = createRenapClient({ baseUrl: `${simulator.url}/renap`, apiKey: SIMULATOR_DEV_CREDENTIALS.renapApiKey, timeoutMs: 10_000 });
    const rtu = createRtuClient({ baseUrl: `${simulator.url}/rtu`, apiKey: SIMULATOR_DEV_CREDENTIALS.rtuApiKey, timeoutMs: 10_000 });
    const people = Array.from({ length: 200 }, (_, index) => population.member(index)).filter((member) => member.cui !== null);
    await inBatches(people, async (member) => {
      const answer = await renap.searchByCui(member.cui ?? '');
      expect(answer).toMatchObject({ ok: true, httpStatus: 200, responseCode: 200, data: { cui: member.cui } });
    });
    const nits = Array.from({ length: 50 }, (_, index) => population.member(index * 7).nit);
    const batch = await rtu.searchByNits(nits);
    expect(batch.ok && batch.records.map((record) => record.nit)).toEqual(nits);
  });
});
