import { z } from 'zod';
import { MAX_IDENTIFIER_LENGTH } from '@/lib/contract/requests';
import { csvField } from '@/lib/platform/csv/csv';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { listIntegrations } from '@/lib/flows/integration-management/service';
import { listIdentifierLookups, type IdentifierLookup } from '@/lib/core/records/list';
import { CONTENT_WIDTH, GREY, newPdfDocument, PAGE, section, table } from '@/lib/flows/statements/pdf';
import { formatNit, NOT_REGISTERED } from '@/lib/flows/integration-management/details-display';
import { REVEAL_REASON_MAX_LENGTH, writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { linkedIdentifiers } from '@/lib/core/personal-data/identifier-links';
import { maskIdentifier } from '@/lib/core/sealing/masking';

// "¿Quién consultó este CUI o NIT?": what a person asking under habeas data (or their lawyer, or
// an integrator's compliance team) is owed: which integrations looked their identifier up, when,
// and for what declared purpose. Producing it is itself logged in the personal-data access log.

/** The most queries one report lists; a larger history is summarised per integration from these. */
export const SUBJECT_REPORT_MAX_ROWS = 10_000;

export const subjectIdentifierSchema = z
  .string({ error: 'Escriba un NIT o un CUI.' })
  .trim()
  .min(2, 'Escriba un NIT o un CUI.')
  .max(MAX_IDENTIFIER_LENGTH, 'El NIT o CUI es demasiado largo.')
  .regex(/^[\d\s.\-kK]+$/, 'Un NIT o CUI tiene solo cifras (y la K del dígito verificador), con o sin guion o espacios.');

/** The report's address parameter for the request's reference (not personal data: a ticket or letter number). */
export const SUBJECT_REQUEST_PARAM = 'referencia';

/** The request's reference (a ticket or the person's letter): asked for every report and kept with it in the access log. */
export const subjectRequestSchema = z
  .string({ error: 'Escriba la referencia de la solicitud.' })
  .trim()
  .min(3, 'Escriba la referencia de la solicitud (el número de ticket o de la carta de la persona, al menos 3 caracteres).')
  .max(REVEAL_REASON_MAX_LENGTH, `La referencia puede tener como máximo ${REVEAL_REASON_MAX_LENGTH} caracteres.`);

/**
 * What the report covers and what it cannot know, said on it: the lookups made
 * with the identifier written, in any spelling, and with the person's other identifier when a
 * source's answer gave both together; within the retention period.
 */
export const SUBJECT_REPORT_LIMITS =
  'Este informe lista las consultas hechas con este identificador (escrito de cualquier forma, también dentro de lotes de RTU por NIT) ' +
  'y con el otro identificador de la misma persona (su NIT si se buscó por CUI, o su CUI si se buscó por NIT) cuando alguna respuesta ' +
  'de las fuentes dio los dos juntos, en el periodo que se conservan los registros. No puede incluir las consultas hechas con un ' +
  'identificador que ninguna respuesta relacionó con este: si la persona tiene otro que no aparece abajo, prepare un informe también con él.';

/** How the report names a lookup made with the person's other identifier, and one made with the identifier asked about. */
export const LOOKUP_MATCH_LABELS = { direct: 'Este identificador', linked: 'Identificador relacionado' } as const;

export interface SubjectReport {
  identifier: string;
  /** The request's reference the administrator gave (ticket, letter). */
  reference: string;
  generatedAt: Date;
  /** Each integration by its legal name and NIT (null: never registered) and its login. */
  integrations: Array<{ id: number; nombre: string; legalName: string | null; nit: string | null; purpose: string; queries: number; first: Date; last: Date }>;
  lookups: IdentifierLookup[];
  /** The person's other identifiers the sources' answers linked, masked ("NIT 57****7K"): their lookups are listed too. */
  linked: string[];
  /** More queries than SUBJECT_REPORT_MAX_ROWS: the list holds the newest ones. */
  truncated: boolean;
}

export type SubjectReportFormat = 'page' | 'csv' | 'pdf';

/**
 * Builds the report for an administrator and logs it (kind subject_report, the identifier masked,
 * the format and how many queries it lists) before it is returned.
 */
export async function produceSubjectReport(userId: number, identifier: string, format: SubjectReportFormat, reference: string, now = new Date()): Promise<SubjectReport> {
  const linked = await linkedIdentifiers(identifier);
  const found = await listIdentifierLookups(identifier, SUBJECT_REPORT_MAX_ROWS + 1, linked.keys);
  const truncated = found.length > SUBJECT_REPORT_MAX_ROWS;
  const lookups = found.slice(0, SUBJECT_REPORT_MAX_ROWS);
  const known = new Map((await listIntegrations()).map((integration) => [integration.id, integration]));
  const byIntegration = new Map<number, SubjectReport['integrations'][number]>();
  for (const lookup of lookups) {
    const entry = byIntegration.get(lookup.integrationId);
    if (entry) {
      entry.queries += 1;
      if (lookup.createdAt < entry.first) entry.first = lookup.createdAt;
      if (lookup.createdAt > entry.last) entry.last = lookup.createdAt;
    } else {
      byIntegration.set(lookup.integrationId, {
        id: lookup.integrationId,
        nombre: lookup.integrationNombre,
        legalName: known.get(lookup.integrationId)?.legalName ?? null,
        nit: known.get(lookup.integrationId)?.nit ?? null,
        purpose: known.get(lookup.integrationId)?.purpose ?? '',
        queries: 1,
        first: lookup.createdAt,
        last: lookup.createdAt,
      });
    }
  }
  await writeAccessEntry({
    userId,
    kind: 'subject_report',
    reason: reference,
    details: { identificador: maskIdentifier(identifier), relacionados: linked.shown, format, rows: lookups.length, integrations: byIntegration.size },
  });
  return {
    identifier: identifier.trim(),
    reference,
    generatedAt: now,
    integrations: [...byIntegration.values()].sort((a, b) => b.last.getTime() - a.last.getTime()),
    lookups,
    linked: linked.shown,
    truncated,
  };
}

const STATUS_TEXT = (status: number) => (status === 200 ? 'Respondida' : `Sin datos entregados (${status})`);

/** The report as CSV: one line per query, newest first, with the integration's declared purpose. */
export function subjectReportCsv(report: SubjectReport): string {
  const byId = new Map(report.integrations.map((integration) => [integration.id, integration]));
  const lines = [
    ['fecha_utc', 'fecha_guatemala', 'integracion', 'razon_social', 'nit_integrador', 'finalidad_declarada', 'consulta', 'buscada_por', 'estado_http', 'resultado'].join(','),
    ...report.lookups.map((lookup) =>
      [
        lookup.createdAt.toISOString(),
        csvField(formatDateTime(lookup.createdAt)),
        csvField(lookup.integrationNombre),
        csvField(byId.get(lookup.integrationId)?.legalName ?? NOT_REGISTERED.legalName),
        csvField(integratorNit(byId.get(lookup.integrationId)?.nit ?? null)),
        csvField(byId.get(lookup.integrationId)?.purpose || 'no declarada'),
        csvField(LOOKUP_LABELS[lookup.lookup]),
        csvField(matchLabel(lookup)),
        String(lookup.httpStatus),
        csvField(STATUS_TEXT(lookup.httpStatus)),
      ].join(','),
    ),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Whether a lookup was made with the identifier asked about or with the person's other one. */
export function matchLabel(lookup: Pick<IdentifierLookup, 'byLinkedIdentifier'>): string {
  return lookup.byLinkedIdentifier ? LOOKUP_MATCH_LABELS.linked : LOOKUP_MATCH_LABELS.direct;
}

/** The report's line about the identifiers it added. */
export function linkedIdentifiersLine(report: Pick<SubjectReport, 'linked'>): string {
  return report.linked.length === 0
    ? 'Ninguna respuesta de las fuentes relacionó este identificador con otro de la misma persona.'
    : `Incluye las consultas hechas con ${report.linked.join(' y ')}, que las respuestas de las fuentes relacionaron con este identificador.`;
}

function integratorNit(nit: string | null): string {
  return nit ? formatNit(nit) : NOT_REGISTERED.nit;
}

/** An integration as the person reads it: its legal name and NIT, then the login the records use. */
export function integrationIdentity(integration: { nombre: string; legalName: string | null; nit: string | null }): string {
  return `${integration.legalName ?? `Razón social ${NOT_REGISTERED.legalName}`} (NIT ${integratorNit(integration.nit)}; integración ${integration.nombre})`;
}

function lookupIntegrationName(report: SubjectReport, integrationId: number, nombre: string): string {
  return report.integrations.find((integration) => integration.id === integrationId)?.legalName ?? nombre;
}

/** The report as a PDF (A4, Spanish), to hand to the person who asked. */
export async function subjectReportPdf(report: SubjectReport, serviceName: string): Promise<Buffer> {
  const document = await newPdfDocument({
    size: 'A4',
    margin: PAGE.margin,
    info: { Title: 'Consultas de un identificador', Author: serviceName, CreationDate: report.generatedAt },
  });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });
  document.font('Helvetica').fontSize(9).fillColor(GREY).text(serviceName);
  document.moveDown(0.5).font('Helvetica-Bold').fontSize(18).fillColor('black').text('¿Quién consultó este CUI o NIT?');
  document.font('Helvetica').fontSize(11).text(`Identificador: ${report.identifier}`);
  document.fontSize(10).text(`Referencia de la solicitud: ${report.reference}`);
  document.fontSize(10).text(linkedIdentifiersLine(report));
  document.fontSize(9).fillColor(GREY).text(`Emitido el ${formatDateTime(report.generatedAt)} (hora de Guatemala), con los registros de consultas que se conservan.`);
  document.moveDown(0.3).text(SUBJECT_REPORT_LIMITS);
  document.fillColor('black');

  section(document, 'Integraciones que lo consultaron');
  if (report.integrations.length === 0) {
    document.font('Helvetica').fontSize(10).text('Ninguna integración consultó este identificador en el periodo que se conservan los registros.');
  } else {
    table(
      document,
      [120, 175, 60, CONTENT_WIDTH - 355],
      [
        ['Integración', 'Finalidad declarada', 'Consultas', 'Primera y última'],
        ...report.integrations.map((integration) => [
          integrationIdentity(integration),
          integration.purpose || 'No declarada',
          integration.queries.toLocaleString('es-GT'),
          `${formatDateTime(integration.first)}\n${formatDateTime(integration.last)}`,
        ]),
      ],
      { header: true, alignRight: [2] },
    );
  }
  if (report.lookups.length > 0) {
    section(document, 'Consultas, de la más reciente a la más antigua');
    table(
      document,
      [95, 120, 100, 90, CONTENT_WIDTH - 405],
      [
        ['Fecha', 'Integración', 'Consulta', 'Buscada por', 'Resultado'],
        ...report.lookups.map((lookup) => [
          formatDateTime(lookup.createdAt),
          lookupIntegrationName(report, lookup.integrationId, lookup.integrationNombre),
          LOOKUP_LABELS[lookup.lookup],
          matchLabel(lookup),
          STATUS_TEXT(lookup.httpStatus),
        ]),
      ],
      { header: true },
    );
  }
  if (report.truncated) {
    document.moveDown(0.5).fontSize(9).fillColor(GREY).text(`Se listan las ${SUBJECT_REPORT_MAX_ROWS.toLocaleString('es-GT')} consultas más recientes.`);
  }
  document.end();
  return done;
}
