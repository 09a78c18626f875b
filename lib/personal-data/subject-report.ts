import PDFDocument from 'pdfkit';
import { z } from 'zod';
import { MAX_IDENTIFIER_LENGTH } from '@/lib/contract/requests';
import { csvField } from '@/lib/format/csv';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/format/labels';
import { listIntegrations } from '@/lib/integrations/service';
import { listIdentifierLookups, type IdentifierLookup } from '@/lib/records/list';
import { CONTENT_WIDTH, GREY, PAGE, section, table } from '@/lib/statements/pdf';
import { writeAccessEntry } from './access-log';
import { maskIdentifier } from './masking';

// "¿Quién consultó este CUI o NIT?": what a person asking under habeas data (or their lawyer, or
// an integrator's compliance team) is owed: which integrations looked their identifier up, when,
// and for what declared purpose. Producing it is itself logged in the personal-data access log.

/** The most queries one report lists; a larger history is summarised per integration from these. */
export const SUBJECT_REPORT_MAX_ROWS = 10_000;

export const subjectIdentifierSchema = z
  .string({ error: 'Escribe un NIT o un CUI.' })
  .trim()
  .min(2, 'Escribe un NIT o un CUI.')
  .max(MAX_IDENTIFIER_LENGTH, 'El NIT o CUI es demasiado largo.')
  .regex(/^[\d\s.\-kK]+$/, 'Un NIT o CUI tiene solo cifras (y la K del dígito verificador), con o sin guion o espacios.');

export interface SubjectReport {
  identifier: string;
  generatedAt: Date;
  integrations: Array<{ id: number; nombre: string; purpose: string; queries: number; first: Date; last: Date }>;
  lookups: IdentifierLookup[];
  /** More queries than SUBJECT_REPORT_MAX_ROWS: the list holds the newest ones. */
  truncated: boolean;
}

export type SubjectReportFormat = 'page' | 'csv' | 'pdf';

/**
 * Builds the report for an administrator and logs it (kind subject_report, the identifier masked,
 * the format and how many queries it lists) before it is returned.
 */
export async function produceSubjectReport(userId: number, identifier: string, format: SubjectReportFormat, now = new Date()): Promise<SubjectReport> {
  const found = await listIdentifierLookups(identifier, SUBJECT_REPORT_MAX_ROWS + 1);
  const truncated = found.length > SUBJECT_REPORT_MAX_ROWS;
  const lookups = found.slice(0, SUBJECT_REPORT_MAX_ROWS);
  const purposes = new Map((await listIntegrations()).map((integration) => [integration.id, integration.purpose]));
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
        purpose: purposes.get(lookup.integrationId) ?? '',
        queries: 1,
        first: lookup.createdAt,
        last: lookup.createdAt,
      });
    }
  }
  await writeAccessEntry({
    userId,
    kind: 'subject_report',
    details: { identificador: maskIdentifier(identifier), format, rows: lookups.length, integrations: byIntegration.size },
  });
  return {
    identifier: identifier.trim(),
    generatedAt: now,
    integrations: [...byIntegration.values()].sort((a, b) => b.last.getTime() - a.last.getTime()),
    lookups,
    truncated,
  };
}

const STATUS_TEXT = (status: number) => (status === 200 ? 'Respondida' : `Sin datos entregados (${status})`);

/** The report as CSV: one line per query, newest first, with the integration's declared purpose. */
export function subjectReportCsv(report: SubjectReport): string {
  const purposes = new Map(report.integrations.map((integration) => [integration.id, integration.purpose]));
  const lines = [
    ['fecha_utc', 'fecha_guatemala', 'integracion', 'finalidad_declarada', 'consulta', 'estado_http', 'resultado'].join(','),
    ...report.lookups.map((lookup) =>
      [
        lookup.createdAt.toISOString(),
        csvField(formatDateTime(lookup.createdAt)),
        csvField(lookup.integrationNombre),
        csvField(purposes.get(lookup.integrationId) || 'no declarada'),
        csvField(LOOKUP_LABELS[lookup.lookup]),
        String(lookup.httpStatus),
        csvField(STATUS_TEXT(lookup.httpStatus)),
      ].join(','),
    ),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The report as a PDF (A4, Spanish), to hand to the person who asked. */
export function subjectReportPdf(report: SubjectReport, serviceName: string): Promise<Buffer> {
  const document = new PDFDocument({
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
  document.fontSize(9).fillColor(GREY).text(`Emitido el ${formatDateTime(report.generatedAt)} (hora de Guatemala), con los registros de consultas que se conservan.`);

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
          integration.nombre,
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
      [110, 140, 130, CONTENT_WIDTH - 380],
      [['Fecha', 'Integración', 'Consulta', 'Resultado'], ...report.lookups.map((lookup) => [formatDateTime(lookup.createdAt), lookup.integrationNombre, LOOKUP_LABELS[lookup.lookup], STATUS_TEXT(lookup.httpStatus)])],
      { header: true },
    );
  }
  if (report.truncated) {
    document.moveDown(0.5).fontSize(9).fillColor(GREY).text(`Se listan las ${SUBJECT_REPORT_MAX_ROWS.toLocaleString('es-GT')} consultas más recientes.`);
  }
  document.end();
  return done;
}
