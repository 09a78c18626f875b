// A job's results name the source that answered each row as the integrator reads every source
// elsewhere (lib/flows/bulk/results.ts): by the name /estado and the notices give it, and by the id
// GET /api/estado and the notices' fuente_id give it, never by an internal English word alone.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { formatGuatemalanTimestamp } from '@/lib/platform/time/guatemala-time';
import { SUCCESS_EXAMPLES } from '@/lib/surfaces/api/success-examples';
import { seal } from '@/lib/core/sealing/envelope';
import { submitJob } from './jobs';
import { itemReasonLabel, SOURCE_REJECTED } from './labels';
import { BULK_CATALOGS, type BulkCatalogPathName } from './requests';
import { csvHeader, csvLine, jobResults, type ResultRow } from './results';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('lotes-fuente', { tariffCentavos: 150, balanceCentavos: 100_000 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

describe("a job's results", () => {
  it('name the source of an answered row as /estado and the notices do, and leave it empty for a row never sent', async () => {
    const submitted = await submitJob(integration.id, 'omisos', ['576937-K', 'no-es-un-nit'], 'fuente-en-resultados');
    if (submitted.kind !== 'created') throw new Error('a new job');
    // The catalog source answered the first row (as its lookup's settlement writes it: lib/flows/bulk/items.ts).
    await (await database()).rows(sql`
      update bulk_job_items i set status = 'no_encontrado', answered_at = now(), source = 'catalog', request_id = 'req_fuente_1'
        from bulk_jobs j where j.id = i.job_id and j.public_id = ${submitted.publicId} and i.position = 0`);

    const rows: ResultRow[] = [];
    for await (const row of (await jobResults(integration.id, submitted.publicId))!) rows.push(row);
    expect(rows.map((row) => [row.posicion, row.fuente, row.fuente_id])).toEqual([
      [1, 'Fuente de catálogos (CUI/NIT, RTU, omisos)', 'catalog'],
      [2, null, null],
    ]);
    expect(rows[0]!.fuente).toBe(SOURCE_LABELS.catalog);
    expect(csvLine(rows[0]!, 'omisos')).toContain(',"Fuente de catálogos (CUI/NIT, RTU, omisos)",catalog,req_fuente_1,');
  });
});

/** One CSV line's cells as a spreadsheet reads them (RFC 4180). */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  const body = line.replace(/\r\n$/, '');
  for (let at = 0; at < body.length; at += 1) {
    const char = body[at]!;
    if (quoted && char === '"' && body[at + 1] === '"') {
      cell += '"';
      at += 1;
    } else if (char === '"' && (quoted || cell === '')) quoted = !quoted;
    else if (!quoted && char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  return [...cells, cell];
}

/** Last, after every other column: the row's constancia de consulta. */
const TRAILING = 'constancia_id,constancia_url';
const LEADING = 'posicion,identificador,estado,motivo,respondido_en,fuente,fuente_id,request_id,datos,estado_descripcion,motivo_descripcion,respondido_en_guatemala';

/** Each catalog's found answer (the contract's examples), and the CSV columns an accountant reads it by. */
const CATALOG_CASES: { catalog: BulkCatalogPathName; answer: unknown; headers: string; found: string[] }[] = [
  {
    catalog: 'cui-nit',
    answer: SUCCESS_EXAMPLES['/catalogos/cui-nit'].response,
    headers: 'nombre,tipo_persona,nit,cui',
    found: ['XICARA,SIC,,JOSUE,JORGE', 'Individual', '576937K', '1587564440904'],
  },
  {
    catalog: 'omisos',
    answer: SUCCESS_EXAMPLES['/catalogos/omisos'].response,
    headers: 'nombre,nombre_comercial,estado_contribuyente,regimen,omiso,cobro_coactivo,incumplimientos,departamento,municipio,direccion',
    found: ['XICARA,SIC,,JOSUE,JORGE', 'VARIEDADES LA CENTRAL', 'ACTIVO', 'PEQUEÑO CONTRIBUYENTE', 'No', 'No', '', 'HUEHUETENANGO', 'SANTA ANA HUISTA', 'ALDEA EL CARMEN, SANTA ANA HUISTA'],
  },
  {
    catalog: 'rtu',
    answer: SUCCESS_EXAMPLES['/catalogos/rtu'].response,
    headers: 'nombre,tipo_contribuyente,estado_contribuyente,regimen_isr,regimen_iva,fecha_ultima_actualizacion',
    found: ['JOSUE JORGE XICARA SIC', 'PERSONA INDIVIDUAL', 'ACTIVO', '', 'PEQUEÑO CONTRIBUYENTE', '02/05/2021'],
  },
];

describe("a job's results as CSV, for a spreadsheet", () => {
  it.each(CATALOG_CASES)('$catalog: keep the codes first, then the row in words, the time in Guatemala and the answer in columns', async ({ catalog, answer, headers, found }) => {
    const submitted = await submitJob(integration.id, BULK_CATALOGS[catalog], ['576937-K', '10527478-K', '1234567-9', 'no-es-un-nit'], `excel-${catalog}`);
    if (submitted.kind !== 'created') throw new Error('a new job');
    const data = (answer as { data: unknown }).data;
    const settle = (position: number, status: string, reason: string | null, result: unknown) =>
      database().then((handle) =>
        handle.rows(sql`
          update bulk_job_items i set status = ${status}::bulk_item_status, reason = ${reason}::text, answered_at = '2026-11-24T10:31:02.000Z',
                 result_sealed = ${result === null ? null : seal(JSON.stringify(result), 'bulk_result')}::text, source = 'catalog', request_id = ${`req_excel_${position}`}
            from bulk_jobs j where j.id = i.job_id and j.public_id = ${submitted.publicId} and i.position = ${position}::integer`),
      );
    await settle(0, 'encontrado', null, data);
    await settle(1, 'no_encontrado', null, null);
    await settle(2, 'invalido', SOURCE_REJECTED, null);

    const results = (await jobResults(integration.id, submitted.publicId))!;
    expect(results.catalog).toBe(BULK_CATALOGS[catalog]);
    const rows: ResultRow[] = [];
    for await (const row of results) rows.push(row);
    const csv = csvHeader(results.catalog) + rows.map((row) => csvLine(row, results.catalog)).join('');

    // A byte-order mark first, as every export has, so Excel reads "Sí" and "PEQUEÑO" as written.
    expect(csv.startsWith(`\uFEFF${LEADING},${headers},${TRAILING}\r\n`)).toBe(true);
    const [, ...lines] = csv.split(/(?<=\r\n)/).map(cellsOf);
    // The catalog's columns, then the row's constancia: none, this job did not ask for them.
    const empty = [...headers.split(','), ...TRAILING.split(',')].map(() => '');
    expect(lines[0]).toEqual(['1', '576937-K', 'encontrado', '', '2026-11-24T10:31:02.000Z', 'Fuente de catálogos (CUI/NIT, RTU, omisos)', 'catalog', 'req_excel_0', JSON.stringify(data), 'Encontrado', '', '2026-11-24 04:31:02', ...found, '', '']);
    expect(lines[1]).toEqual(['2', '10527478-K', 'no_encontrado', '', '2026-11-24T10:31:02.000Z', 'Fuente de catálogos (CUI/NIT, RTU, omisos)', 'catalog', 'req_excel_1', '', 'No encontrado', '', '2026-11-24 04:31:02', ...empty]);
    expect(lines[2]!.slice(2, 4)).toEqual(['invalido', SOURCE_REJECTED]);
    expect(lines[2]!.slice(9)).toEqual(['Rechazado por la fuente', itemReasonLabel(SOURCE_REJECTED), '2026-11-24 04:31:02', ...empty]);
    // Set aside when it was sent: its time is the job's, in both zones.
    expect(lines[3]!.slice(2, 4)).toEqual(['invalido', 'nit_invalido']);
    expect(lines[3]!.slice(9)).toEqual(['Apartado', 'NIT inválido', formatGuatemalanTimestamp(new Date(lines[3]![4]!)), ...empty]);
  });

  it('name a legal entity by its razón social in the RTU\'s nombre, as a person by their names (the sixth review found it empty)', () => {
    const headers = cellsOf(csvHeader('rtu').slice(1));
    const nameOf = (datos: unknown) => cellsOf(csvLine({ posicion: 1, identificador: '576937-K', estado: 'encontrado', motivo: null, datos, respondido_en: null, fuente: null, fuente_id: null, request_id: null, constancia_id: null, constancia_url: null }, 'rtu'))[headers.indexOf('nombre')];
    expect(nameOf({ persona: null, empresa: { razon_social: 'COOPERATIVA EJEMPLO, R.L.', tipo_sociedad: 'Cooperativa' } })).toBe('COOPERATIVA EJEMPLO, R.L.');
    expect(nameOf({ persona: { primerNombre: 'Ana', primerApellido: 'López' }, empresa: null })).toBe('Ana López');
    // A record whose entity names itself elsewhere leaves the cell empty rather than guessing.
    expect(nameOf({ persona: null, empresa: { denominacion: 'OTRA, S.A.' } })).toBe('');
  });

  it('say "No reportado" for a yes/no the source did not report, never "No"', () => {
    const row: ResultRow = { posicion: 1, identificador: '576937-K', estado: 'encontrado', motivo: null, datos: { tieneIncumplimientos: true, tieneProcesoCoactivo: null, incumplimientos: ['IVA 2025-09', 'ISR 2024'] }, respondido_en: null, fuente: null, fuente_id: null, request_id: null, constancia_id: null, constancia_url: null };
    const cells = cellsOf(csvLine(row, 'omisos'));
    const headers = cellsOf(csvHeader('omisos').slice(1));
    expect(['omiso', 'cobro_coactivo', 'incumplimientos'].map((header) => cells[headers.indexOf(header)])).toEqual(['Sí', 'No reportado', 'IVA 2025-09; ISR 2024']);
  });
});
