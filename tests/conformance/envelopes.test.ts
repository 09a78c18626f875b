// Contract, "Resources" (lookup envelope, catalog envelope and the catalog records) and the request
// rules of "Endpoints", over HTTP against the built app (startApp, through the harness), with the
// relay in front of the simulator showing what the gateway sent upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cuiNitResultadoSchema, omisosResultadoSchema, rtuResultadoSchema } from '@/lib/contract/catalog';
import { rtuFoundMessage } from '@/lib/contract/messages';
import { FAULT_IDENTIFIERS } from '@/simulator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  CATALOG_ROUTES,
  CATALOG_UPSTREAM_PATHS,
  catalogData,
  createTestIntegration,
  ROUTES,
  startGateway,
  type ApiAnswer,
  type CatalogRoute,
  type Gateway,
  type TestIntegration,
  type UpstreamRequest,
} from './harness';

// Field names as the contract lists them (Resources).
const CUI_NIT_FIELDS = ['cui', 'nit', 'nombre', 'tipoPersona', 'fechaConsulta'];
const OMISOS_FIELDS = [
  'nit',
  'nombre',
  'nombreComercial',
  'cui',
  'versionDpi',
  'estadoContribuyente',
  'tipoAfiliacion',
  'regimen',
  'fechaAfiliacion',
  'domicilioFiscal',
  'establecimientos',
  'tieneIncumplimientos',
  'tieneProcesoCoactivo',
  'incumplimientos',
  'fechaConsulta',
];
const RTU_FIELDS = [
  'nit',
  'tipoContribuyente',
  'persona',
  'empresa',
  'representantes',
  'afiliaciones',
  'caracteristicasEspeciales',
  'fechaUltimaActualizacion',
  'fechaConsulta',
];
const PERSONA_FIELDS = [
  'primerNombre',
  'segundoNombre',
  'primerApellido',
  'segundoApellido',
  'dpi',
  'serieDpi',
  'versionDpi',
  'fechaNacimiento',
  'fechaVencimientoDpi',
  'genero',
  'estadoCivil',
  'nacionalidad',
  'tipoDocumento',
  'estado',
  'sectorEconomico',
  'actividadesEconomicas',
  'marcas',
  'participacionGremial',
  'participacionEmpresarial',
];
const AFILIACION_FIELDS = [
  'impuesto',
  'regimen',
  'tipoContribuyente',
  'periodoImpositivo',
  'formaCalculo',
  'estatusAfiliacion',
  'tipoRenta',
  'tipoEstablecimiento',
  'exento',
  'fechaDesde',
  'obligaciones',
];
const FIELDS_BY_CATALOG: Record<CatalogRoute, string[]> = {
  [ROUTES.cuiNit]: CUI_NIT_FIELDS,
  [ROUTES.catalogRtu]: RTU_FIELDS,
  [ROUTES.omisos]: OMISOS_FIELDS,
};
const SCHEMA_BY_CATALOG = {
  [ROUTES.cuiNit]: cuiNitResultadoSchema,
  [ROUTES.catalogRtu]: rtuResultadoSchema,
  [ROUTES.omisos]: omisosResultadoSchema,
};
/** Unnormalized fields: opaque JSON, exempt from the camelCase rule. */
const OPAQUE_FIELDS = new Set(['empresa', 'representantes', 'establecimientos']);
const NULL_CODIGO_DESCRIPCION = { codigo: null, descripcion: null };

let testDb: TestDatabase;
let gateway: Gateway;
let reader: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  reader = await createTestIntegration('envelope-reader', { tariffCentavos: 10, balanceCentavos: 1_000_000 });
  gateway = await startGateway(testDb, { env: { RATE_LIMIT_CATALOG_PER_MINUTE: '1000' } });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

const call = (route: string, json: unknown) => gateway.call(route, { as: reader, json });

/** The request the gateway sent upstream for this call (the relay sees them in order). */
async function callAndCapture(route: CatalogRoute, json: unknown): Promise<{ answer: ApiAnswer; upstream: UpstreamRequest | undefined }> {
  const before = gateway.upstream.requests.length;
  const answer = await call(route, json);
  const sent = gateway.upstream.requests.slice(before);
  expect(sent.length).toBeLessThanOrEqual(1);
  if (sent[0]) expect(sent[0].path).toBe(CATALOG_UPSTREAM_PATHS[route]);
  return { answer, upstream: sent[0] };
}

/** Every key of `value` outside the opaque fields, with its path. */
function keysOutsideOpaqueFields(value: unknown, path = 'data'): Array<{ path: string; key: string }> {
  if (Array.isArray(value)) return value.flatMap((element, index) => keysOutsideOpaqueFields(element, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, nested]) => [
    { path, key },
    ...(OPAQUE_FIELDS.has(key) ? [] : keysOutsideOpaqueFields(nested, `${path}.${key}`)),
  ]);
}

function expectCatalogRecord(route: CatalogRoute, data: Record<string, unknown>): void {
  expect(Object.keys(data).sort()).toEqual([...FIELDS_BY_CATALOG[route]].sort());
  const camelCaseViolations = keysOutsideOpaqueFields(data).filter(({ key }) => !/^[a-z][a-zA-Z0-9]*$/.test(key));
  expect(camelCaseViolations).toEqual([]);
  // The project's strict schemas: every field present (null, never omitted), lists never null.
  const parsed = SCHEMA_BY_CATALOG[route].safeParse(data);
  expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true);
}

describe('Lookup envelope: person registry', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('a person found: HTTP 200, success true, responseCode 200, data the record with its cui', async () => {
    const cui = gateway.sample.individual.cui!;
    const answer = await call(ROUTES.renap, { cui });
    expect(answer.status).toBe(200);
    const body = answer.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'responseCode', 'success']);
    expect(body).toMatchObject({ success: true, responseCode: 200, data: { cui } });
    expect(typeof body.message).toBe('string');
  });

  it('a 200 with success true can carry an error responseCode: no record (404) and registry backend down (503)', async () => {
    const noRecord = await call(ROUTES.renap, { cui: gateway.sample.unknownCui });
    expect({ status: noRecord.status, body: noRecord.body }).toMatchObject({ status: 200, body: { success: true, responseCode: 404, data: null } });

    const backendDown = await call(ROUTES.renap, { cui: FAULT_IDENTIFIERS.error_code_in_success.cui });
    expect({ status: backendDown.status, body: backendDown.body }).toMatchObject({ status: 200, body: { success: true, responseCode: 503, data: null } });
    expect(typeof (backendDown.body as { message: unknown }).message).toBe('string');
  });

  it('the HTTP status is the registry\'s and success follows it (decision: answers about the person pass through, 4xx included)', async () => {
    const invalid = await call(ROUTES.renap, { cui: '1234567890123' });
    expect({ status: invalid.status, body: invalid.body }).toMatchObject({ status: 400, body: { success: false, responseCode: 400, data: null } });
    const rejected = await call(ROUTES.renap, { cui: FAULT_IDENTIFIERS.data_rejected.cui });
    expect({ status: rejected.status, body: rejected.body }).toMatchObject({ status: 400, body: { success: false, responseCode: 400 } });

    // A registry that answers HTTP 404 with its own body (the simulator never does; the relay can).
    gateway.upstream.answerInstead((request) => (request.body as { cui?: string }).cui === '9999999999999', {
      status: 404,
      contentType: 'application/json',
      body: JSON.stringify({ responseCode: 404, message: 'No encontrado', data: null }),
    });
    const notFound = await call(ROUTES.renap, { cui: '9999999999999' });
    expect({ status: notFound.status, body: notFound.body }).toEqual({
      status: 404,
      body: { success: false, data: null, message: 'No encontrado', responseCode: 404 },
    });
  });

  it('the CUI goes to the registry exactly as sent, printed grouping included', async () => {
    const grouped = '1587 56444 0904';
    const before = gateway.upstream.requests.length;
    const answer = await call(ROUTES.renap, { cui: grouped });
    expect(answer.status).toBe(200);
    expect(gateway.upstream.requests.slice(before).map((request) => request.body)).toEqual([{ cui: grouped }]);
  });
});

describe('Lookup envelope: RTU by NIT', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('HTTP status equals responseCode; data holds the records found as published; message says how many of how many', async () => {
    const { individual, legalEntity, unknownNit } = gateway.sample;
    const answer = await call(ROUTES.rtuNits, { nits: [legalEntity.nit, unknownNit, individual.nit] });
    expect(answer.status).toBe(200);
    const body = answer.body as { success: boolean; data: Array<Record<string, unknown>>; message: string; responseCode: number };
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'responseCode', 'success']);
    expect(body.responseCode).toBe(answer.status);
    expect(body.success).toBe(true);
    expect(body.data.map((record) => record.nit)).toEqual([legalEntity.nit, individual.nit]);
    // As the registry publishes them: its own keys and dd/mm/yyyy dates, not normalized.
    expect(body.data[1]).toHaveProperty('nombre_comercial');
    expect(body.data[1]!.fecha_inscripcion).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(body.message).toBe(rtuFoundMessage(2, 3));
    expect(body.message).toMatch(/\b2\b.*\b3\b/);
  });

  it('a query without matches is not an error: 200, success true, data [], 0 found', async () => {
    for (const nits of [[gateway.sample.unknownNit], [FAULT_IDENTIFIERS.not_found.nit, gateway.sample.unknownNit], [FAULT_IDENTIFIERS.empty_success.nit]]) {
      const answer = await call(ROUTES.rtuNits, { nits });
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 200,
        body: { success: true, data: [], message: rtuFoundMessage(0, nits.length), responseCode: 200 },
      });
    }
  });

  it('up to 50 NITs in one request', async () => {
    const nits = Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? gateway.sample.individual.nit : gateway.sample.unknownNit));
    const answer = await call(ROUTES.rtuNits, { nits });
    expect(answer.status).toBe(200);
    expect((answer.body as { responseCode: number }).responseCode).toBe(200);
  });
});

describe('Catalog envelope and records', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('a success is an object with exactly one key, data: no success, no responseCode; the records have every contract field', async () => {
    const { individual, legalEntity, omiso, coerciveCollection, withMissingFields, cuiOnlyIndividual } = gateway.sample;
    for (const route of CATALOG_ROUTES) {
      for (const member of [individual, legalEntity, omiso, coerciveCollection, withMissingFields, cuiOnlyIndividual]) {
        const answer = await call(route, { nit: member.nit });
        expect(answer.contentType).toMatch(/^application\/json/);
        expectCatalogRecord(route, catalogData(answer));
      }
    }
  });

  it('a source success with nothing recognizable: 200, every field null, CodigoDescripcion objects with both fields null, lists []', async () => {
    const nit = FAULT_IDENTIFIERS.empty_success.nit;
    expect(catalogData(await call(ROUTES.cuiNit, { nit }))).toEqual({ cui: null, nit: null, nombre: null, tipoPersona: null, fechaConsulta: null });

    const omisos = catalogData(await call(ROUTES.omisos, { nit }));
    expectCatalogRecord(ROUTES.omisos, omisos);
    expect(omisos).toMatchObject({
      nit: null,
      domicilioFiscal: { departamento: null, municipio: null, direccion: null, telefono: null },
      establecimientos: [],
      tieneIncumplimientos: null,
      tieneProcesoCoactivo: null,
      incumplimientos: [],
    });

    const rtu = catalogData(await call(ROUTES.catalogRtu, { nit }));
    expectCatalogRecord(ROUTES.catalogRtu, rtu);
    expect(rtu).toEqual({
      nit: null,
      tipoContribuyente: NULL_CODIGO_DESCRIPCION,
      persona: null,
      empresa: null,
      representantes: [],
      afiliaciones: { isr: null, iva: null },
      caracteristicasEspeciales: [],
      fechaUltimaActualizacion: null,
      fechaConsulta: null,
    });
  });

  it('RtuResultado: an individual has persona (every field, fechaNacimiento YYYY-MM-DD) and no empresa; a legal entity the reverse', async () => {
    const { individual, legalEntity } = gateway.sample;
    const person = catalogData(await call(ROUTES.catalogRtu, { nit: individual.nit }));
    const persona = person.persona as Record<string, unknown>;
    expect(Object.keys(persona).sort()).toEqual([...PERSONA_FIELDS].sort());
    expect(persona.fechaNacimiento).toBe(individual.dateOfBirth);
    expect(persona.fechaNacimiento).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(person.empresa).toBeNull();

    const company = catalogData(await call(ROUTES.catalogRtu, { nit: legalEntity.nit }));
    expect(company.persona).toBeNull();
    expect(company.empresa).not.toBeNull();
    expect(typeof company.empresa).toBe('object');
    expect(Array.isArray(company.representantes)).toBe(true);

    for (const record of [person, company]) {
      const afiliaciones = record.afiliaciones as Record<string, Record<string, unknown> | null>;
      expect(Object.keys(afiliaciones).sort()).toEqual(['isr', 'iva']);
      if (afiliaciones.isr) {
        expect(Object.keys(afiliaciones.isr).sort()).toEqual([...AFILIACION_FIELDS].sort());
        expect(afiliaciones.isr.tipoEstablecimiento).toEqual(NULL_CODIGO_DESCRIPCION);
      }
      if (afiliaciones.iva) {
        expect(Object.keys(afiliaciones.iva).sort()).toEqual([...AFILIACION_FIELDS].sort());
        expect(afiliaciones.iva.tipoRenta).toEqual(NULL_CODIGO_DESCRIPCION);
      }
    }
  });

  it('OmisosResultado and CuiNitResultado carry the compliance flags, the CUI as published and the person type', async () => {
    const { individual, legalEntity, omiso, coerciveCollection } = gateway.sample;
    const clean = catalogData(await call(ROUTES.omisos, { nit: individual.nit }));
    expect(clean).toMatchObject({ tieneIncumplimientos: false, tieneProcesoCoactivo: false, incumplimientos: [] });
    expect(String(clean.cui).replace(/\s/g, '')).toBe(individual.cui);

    const withOmissions = catalogData(await call(ROUTES.omisos, { nit: omiso.nit }));
    expect(withOmissions.tieneIncumplimientos).toBe(true);
    expect((withOmissions.incumplimientos as unknown[]).length).toBeGreaterThan(0);
    expect((withOmissions.incumplimientos as unknown[]).every((entry) => typeof entry === 'string')).toBe(true);

    expect(catalogData(await call(ROUTES.omisos, { nit: coerciveCollection.nit })).tieneProcesoCoactivo).toBe(true);

    expect(catalogData(await call(ROUTES.cuiNit, { cui: individual.cui }))).toMatchObject({ nit: individual.nit, cui: individual.cui, tipoPersona: 'individual' });
    expect(catalogData(await call(ROUTES.cuiNit, { nit: legalEntity.nit }))).toMatchObject({ nit: legalEntity.nit, cui: null, tipoPersona: 'juridica' });
  });
});

describe('Catalog requests (Endpoints, request body rules)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('rule 2: with both nit and cui the service forwards both and lets the source decide', async () => {
    const { individual, omiso } = gateway.sample;
    for (const route of CATALOG_ROUTES) {
      const same = await callAndCapture(route, { nit: individual.nit, cui: individual.cui });
      expect(same.answer.status).toBe(200);
      expect(same.upstream?.body).toMatchObject({ nit_consulta: individual.nit, cui_consulta: individual.cui });

      const different = await callAndCapture(route, { nit: individual.nit, cui: omiso.cui });
      expect(different.answer.status).toBe(404);
      expect(different.upstream?.body).toMatchObject({ nit_consulta: individual.nit, cui_consulta: omiso.cui });
    }
  });

  it('identifiers go to the source exactly as received (separators, lowercase k, spaces); an empty one is not sent', async () => {
    const dashed = '576937-k';
    const byNit = await callAndCapture(ROUTES.cuiNit, { nit: dashed });
    expect(byNit.answer.status).toBe(200);
    expect(byNit.upstream?.body).toEqual({ nit_consulta: dashed, modo: 'COPIA' });

    const grouped = '1587 56444 0904';
    const byCui = await callAndCapture(ROUTES.omisos, { cui: grouped, nit: '  ' });
    expect(byCui.answer.status).toBe(200);
    expect(byCui.upstream?.body).toEqual({ cui_consulta: grouped, modo: 'COPIA' });
  });

  it('rule 3: actualizado false (the default) reads the held copy; true asks the source now', async () => {
    const { individual } = gateway.sample;
    const startedAt = new Date().toISOString().slice(0, 19);
    for (const route of CATALOG_ROUTES) {
      const byDefault = await callAndCapture(route, { nit: individual.nit });
      expect((byDefault.upstream?.body as { modo: string }).modo).toBe('COPIA');
      const explicitFalse = await callAndCapture(route, { nit: individual.nit, actualizado: false });
      expect((explicitFalse.upstream?.body as { modo: string }).modo).toBe('COPIA');
      const fresh = await callAndCapture(route, { nit: individual.nit, actualizado: true });
      expect((fresh.upstream?.body as { modo: string }).modo).toBe('EN_LINEA');

      const copyDate = catalogData(byDefault.answer).fechaConsulta as string;
      const freshDate = catalogData(fresh.answer).fechaConsulta as string;
      // fechaConsulta is text as published (currently ISO 8601 UTC): the copy is older than this run, the online answer is not.
      expect(copyDate < startedAt).toBe(true);
      expect(freshDate.slice(0, 19) >= startedAt).toBe(true);
    }
  });

  it('date_of_birth is forwarded as received, unvalidated, by /catalogos/rtu only; the source needs it for a record it holds no copy of', async () => {
    const { withoutHeldCopy, individual } = gateway.sample;
    const held = await callAndCapture(ROUTES.catalogRtu, { nit: withoutHeldCopy.nit, date_of_birth: withoutHeldCopy.dateOfBirth });
    expect(held.answer.status).toBe(200);
    expect(held.upstream?.body).toEqual({ nit_consulta: withoutHeldCopy.nit, modo: 'COPIA', fecha_nacimiento: withoutHeldCopy.dateOfBirth });
    expect((catalogData(held.answer).persona as { fechaNacimiento: string }).fechaNacimiento).toBe(withoutHeldCopy.dateOfBirth);

    const missing = await callAndCapture(ROUTES.catalogRtu, { nit: withoutHeldCopy.nit });
    expect(missing.answer.status).toBe(400);
    expect(missing.upstream?.body).toEqual({ nit_consulta: withoutHeldCopy.nit, modo: 'COPIA' });

    const unvalidated = await callAndCapture(ROUTES.catalogRtu, { nit: individual.nit, date_of_birth: 'catorce de marzo' });
    expect(unvalidated.answer.status).toBe(200);
    expect((unvalidated.upstream?.body as { fecha_nacimiento?: string }).fecha_nacimiento).toBe('catorce de marzo');

    for (const route of [ROUTES.cuiNit, ROUTES.omisos] as const) {
      for (const dateOfBirth of [withoutHeldCopy.dateOfBirth, 19990812, { year: 1999 }]) {
        const discarded = await callAndCapture(route, { nit: withoutHeldCopy.nit, date_of_birth: dateOfBirth });
        expect(discarded.answer.status).toBe(200);
        expect(discarded.upstream?.body).toEqual({ nit_consulta: withoutHeldCopy.nit, modo: 'COPIA' });
      }
    }
  });
});
