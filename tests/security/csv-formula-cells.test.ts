// Every CSV the product writes (the records export of the console and the portal, the retention
// archive, a statement's charged queries, the balance history, "¿Quién consultó?", a job's results,
// a watch list's changes)
// turns a value a spreadsheet would run as a formula into text, by the one rule of
// lib/platform/csv/csv.ts. The guard below fails when a module serves or writes a CSV without going
// through one of the exports this table covers, or quotes CSV fields by a rule of its own.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '@/lib/core/billing/ledger';
import { historyCsvStream } from '@/lib/core/billing/history';
import { placeHold, settleHold } from '@/lib/core/billing/holds';
import { CATALOG_CSV_COLUMNS, csvHeader as bulkCsvHeader, csvLine as bulkCsvLine, type ResultRow } from '@/lib/flows/bulk/results';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { subjectReportCsv, type SubjectReport } from '@/lib/surfaces/console/subject-report';
import { recordsCsvStream, recordsCsvStreamFrom } from '@/lib/core/records/csv';
import { statementChargesCsvStream } from '@/lib/flows/statements/csv';
import { watchChangeCsvLine, watchChangesCsvHeader } from '@/lib/flows/watch-lists/csv';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';

/** Values an integrator, an upstream or an operator could get into a cell, each one a formula to a spreadsheet. */
const HOSTILE = ['=HYPERLINK("http://x","y")', '+502', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1', ' =1+1', '＝1+1', '\u00a0=1+1'];

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('csv-formulas', { tariffCentavos: 150, balanceCentavos: 100_000 });
  // Charged queries whose stored error detail is hostile (upstream text reaches that column).
  for (const [index, value] of HOSTILE.entries()) {
    const requestId = `req_formula${index}`;
    const hold = await placeHold(integration.id, requestId);
    if (!hold) throw new Error('the balance covers the hold');
    await settleHold(hold, true, { integrationId: integration.id, lookup: 'omisos', httpStatus: 200, responseTimeMs: 40, nit: '576937-K', cui: null, errorMessage: value, failure: null, requestId });
    // An operator's note on a balance adjustment.
    const adjusted = await adjustBalance(TEST_ACTOR, integration.id, 1, `${value} ajuste`);
    if (!adjusted.ok) throw new Error(adjusted.error.message);
  }
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

/** The cells of a CSV as a spreadsheet reads them (RFC 4180, CRLF lines; the byte-order mark dropped). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let at = 0; at < body.length; at += 1) {
    const char = body[at]!;
    if (quoted && char === '"' && body[at + 1] === '"') {
      field += '"';
      at += 1;
    } else if (char === '"' && (quoted || field === '')) {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && char === '\r' && body[at + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      at += 1;
    } else {
      field += char;
    }
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** One column's cells, by its header. */
function column(text: string, header: string): string[] {
  const [headers, ...rows] = parseCsv(text);
  const index = headers!.indexOf(header);
  if (index < 0) throw new Error(`no column ${header} in ${headers!.join(',')}`);
  return rows.map((row) => row[index]!);
}

/** One column of a streamed export, oldest row first (exports list the newest first). */
async function streamedColumn(stream: ReadableStream<Uint8Array>, header: string, order: 'newest first' | 'oldest first'): Promise<string[]> {
  const cells = column(await new Response(stream).text(), header);
  return order === 'newest first' ? cells.reverse() : cells;
}
const failOnError = (error: unknown) => {
  throw error;
};

const resultRow = (value: string, index: number): ResultRow => ({
  posicion: index + 1,
  identificador: '576937-K',
  estado: 'invalido',
  motivo: value,
  datos: null,
  respondido_en: null,
  fuente: null,
  fuente_id: null,
  request_id: null,
  constancia_id: null,
  constancia_url: null,
});

/** A catalog's found answer with the value in every text the results' columns read. */
function hostileAnswer(catalog: CatalogName, value: string): unknown {
  const described = { codigo: 1, descripcion: value };
  if (catalog === 'cui_nit') return { cui: value, nit: value, nombre: value, tipoPersona: value, fechaConsulta: null };
  if (catalog === 'omisos') {
    return { nombre: value, nombreComercial: value, estadoContribuyente: value, regimen: value, tieneIncumplimientos: true, tieneProcesoCoactivo: null, incumplimientos: [value], domicilioFiscal: { departamento: value, municipio: value, direccion: value, telefono: value } };
  }
  return {
    tipoContribuyente: described,
    persona: { primerNombre: value, segundoNombre: null, primerApellido: null, segundoApellido: null, estado: described },
    afiliaciones: { isr: { regimen: described }, iva: { regimen: described } },
    fechaUltimaActualizacion: value,
  };
}

/** One column of a job's results CSV. */
function bulkColumn(rows: ResultRow[], catalog: CatalogName, header: string): string[] {
  return column(bulkCsvHeader(catalog) + rows.map((row) => bulkCsvLine(row, catalog)).join(''), header);
}

function subjectReport(): SubjectReport {
  const now = new Date();
  return {
    identifier: '576937-K',
    reference: 'ticket 1',
    generatedAt: now,
    integrations: HOSTILE.map((value, index) => ({ id: index + 1, nombre: `i${index}`, legalName: null, nit: null, purpose: value, queries: 1, first: now, last: now })),
    lookups: HOSTILE.map((_, index) => ({ recordId: index + 1, createdAt: now, integrationId: index + 1, integrationNombre: `i${index}`, lookup: 'omisos', httpStatus: 200, byLinkedIdentifier: false })),
    linked: [],
    truncated: false,
  };
}

interface CsvExport {
  /** The function that makes it: the guard holds every CSV producer to this list. */
  producer: string;
  /** The cells of the export's column that carries the hostile values, one a row, in HOSTILE's order. */
  cells: () => Promise<string[]>;
  /** How the value is stored before it is written (a ledger note is trimmed and carries its word). */
  stored?: (value: string) => string;
}

const month = () => guatemalanToday().slice(0, 7);

const EXPORTS: Record<string, CsvExport> = {
  "the console's records export, identifiers in full": {
    producer: 'recordsCsvStream',
    cells: () => streamedColumn(recordsCsvStream({}, 100, failOnError, { identifiers: 'full' }), 'error', 'newest first'),
  },
  "the records export masked (the console's support, the portal's Consultas)": {
    producer: 'recordsCsvStream',
    cells: () => streamedColumn(recordsCsvStream({}, 100, failOnError, { identifiers: 'masked' }), 'error', 'newest first'),
  },
  'the retention archive': {
    producer: 'recordsCsvStreamFrom',
    cells: () => streamedColumn(recordsCsvStreamFrom({ createdAt: new Date(Date.now() + 60_000).toISOString(), id: 0 }, failOnError), 'error', 'newest first'),
  },
  "a statement's charged queries (console, CLI)": {
    producer: 'statementChargesCsvStream',
    cells: () => streamedColumn(statementChargesCsvStream(integration.id, month(), failOnError, 'full'), 'error', 'oldest first'),
  },
  "a statement's charged queries masked (portal)": {
    producer: 'statementChargesCsvStream',
    cells: () => streamedColumn(statementChargesCsvStream(integration.id, month(), failOnError, 'masked'), 'error', 'oldest first'),
  },
  'the balance history': {
    producer: 'historyCsvStream',
    cells: () => streamedColumn(historyCsvStream(integration.id, { tipo: 'adjustment' }, failOnError), 'nota', 'newest first'),
    stored: (value) => `${value} ajuste`.trim(),
  },
  '¿Quién consultó este CUI o NIT?': {
    producer: 'subjectReportCsv',
    cells: async () => column(subjectReportCsv(subjectReport()), 'finalidad_declarada'),
  },
  "a watch list's changes (portal): the taxpayer's name, from the source": {
    producer: 'watchChangeCsvLine',
    cells: async () =>
      column(
        watchChangesCsvHeader() +
          HOSTILE.map((value, index) =>
            watchChangeCsvLine({ nit: '576937-K', kind: 'omiso', before: false, after: true, run: 2, position: index, jobId: 'lot_formulas', detectedAt: new Date(), constanciaId: null, name: value }),
          ).join(''),
        'nombre',
      ),
  },
  "a job's results (API, portal)": {
    producer: 'csvLine',
    cells: async () => bulkColumn(HOSTILE.map(resultRow), 'omisos', 'motivo'),
  },
  "a job's results: the reason in words (a reason this version does not know keeps its name)": {
    producer: 'csvLine',
    cells: async () => bulkColumn(HOSTILE.map(resultRow), 'omisos', 'motivo_descripcion'),
  },
  // Each catalog's answer in columns: the source's text reaches every one but the yes/no words.
  ...Object.fromEntries(
    (Object.keys(CATALOG_CSV_COLUMNS) as CatalogName[]).flatMap((catalog) =>
      CATALOG_CSV_COLUMNS[catalog].headers
        .filter((header) => !['omiso', 'cobro_coactivo'].includes(header))
        .map((header): [string, CsvExport] => [
          `a job's results (${catalog}): ${header}`,
          { producer: 'csvLine', cells: async () => bulkColumn(HOSTILE.map((value, index) => ({ ...resultRow(value, index), estado: 'encontrado', motivo: null, datos: hostileAnswer(catalog, value) })), catalog, header) },
        ]),
    ),
  ),
};

describe('every CSV export', () => {
  it.each(Object.entries(EXPORTS))('%s writes a formula as text, an apostrophe first', async (_, csvExport) => {
    const cells = await csvExport.cells();
    expect(cells).toHaveLength(HOSTILE.length);
    for (const [index, value] of HOSTILE.entries()) {
      expect(cells[index], JSON.stringify(value)).toBe(`'${(csvExport.stored ?? ((text: string) => text))(value)}`);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The guard: what serves or writes a CSV, and what quotes CSV fields.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_FOLDERS = ['lib', 'app', 'cli', 'components'];
/** Modules that double quotes for another format than CSV. */
const OTHER_QUOTING: Record<string, string> = { 'lib/surfaces/openapi/samples.ts': "C# verbatim strings in the API's code samples" };

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.relative(ROOT, path.join(entry.parentPath, entry.name));
    return entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const SOURCES = SOURCE_FOLDERS.flatMap(sourceFiles).map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') }));
const PRODUCERS = new Set(Object.values(EXPORTS).map((csvExport) => csvExport.producer));

/** Serves a CSV (its content type) or writes a .csv file; an upload form's `accept` is neither. */
function servesOrWritesCsv(text: string): boolean {
  const lines = text.split('\n').filter((line) => !/\baccept=/.test(line));
  return lines.some((line) => /text\/csv|\.csv(\.gz)?["'`]/.test(line));
}

describe('the guard over CSV producers', () => {
  it('finds the routes, the CLI and the retention job that serve or write a CSV', () => {
    const producing = SOURCES.filter((source) => servesOrWritesCsv(source.text)).map((source) => source.file);
    expect(producing).toEqual(
      expect.arrayContaining([
        'app/api/lotes/[id]/resultados/route.ts',
        'lib/surfaces/portal/bulk-download.ts',
        'lib/flows/retention/purge.ts',
        'cli/commands/statements.ts',
        'lib/surfaces/console/subject-report-download.ts',
        'lib/surfaces/console/balance-history.ts',
      ]),
    );
  });

  it('every module that serves or writes a CSV gets its lines from an export the table above covers', () => {
    const uncovered = SOURCES.filter((source) => servesOrWritesCsv(source.text))
      .filter((source) => ![...PRODUCERS].some((producer) => new RegExp(`\\bimport\\b[^;]*\\b${producer}\\b`).test(source.text)))
      .map((source) => source.file);
    expect(uncovered).toEqual([]);
  });

  it("every covered export formats its fields with lib/platform/csv/csv.ts, and no other module quotes CSV fields its own way", () => {
    const producerModules = SOURCES.filter((source) => [...PRODUCERS].some((producer) => new RegExp(`export (async )?function\\*? ${producer}\\b`).test(source.text)));
    expect(producerModules.map((source) => source.file).sort()).toEqual(
      ['lib/core/billing/history.ts', 'lib/flows/bulk/results.ts', 'lib/surfaces/console/subject-report.ts', 'lib/core/records/csv.ts', 'lib/flows/statements/csv.ts', 'lib/flows/watch-lists/csv.ts'].sort(),
    );
    for (const source of producerModules) expect(source.text, source.file).toMatch(/from '@\/lib\/platform\/csv\/csv'/);
    const ownQuoting = SOURCES.filter((source) => source.file !== 'lib/platform/csv/csv.ts' && !(source.file in OTHER_QUOTING) && source.text.includes(`'""'`)).map((source) => source.file);
    expect(ownQuoting).toEqual([]);
  });
});
