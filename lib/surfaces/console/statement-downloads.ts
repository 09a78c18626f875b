// A statement's downloads from the console: an issued one's PDF (support too) and the CSV of its
// charged queries (administrators: identifiers in full, logged as an export), and a preview's PDF.
// A PDF comes back as the file or the answer instead of it; its route answers with the file itself
// (pdfAttachment), so the headers it writes are its own (lib/platform/http/route-headers.ts).
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { consoleUserWithAccess } from '@/lib/flows/auth/session';
import { logger } from '@/lib/platform/logging/logger';
import { postedFormFields } from '@/lib/platform/http/posted-form';
import { env } from '@/lib/platform/settings/env';
import { statementChargesCsvStream } from '@/lib/flows/statements/csv';
import { statementInvoices } from '@/lib/flows/statements/invoices';
import { renderStatementPdf, renderStatementPreviewPdf } from '@/lib/flows/statements/pdf';
import { parsePreviewRange, previewStatement, type PreviewProblem } from '@/lib/flows/statements/preview';
import { findIntegration, type IntegrationView } from '@/lib/flows/integration-management/service';
import { plainText } from '@/lib/platform/http/plain-text';
import { MONTH_PATTERN } from '@/lib/flows/statements/figures';
import { findStatement, type Statement } from '@/lib/flows/statements/statements';

/**
 * What every statement download checks first (an issued statement's PDF and CSV, a preview's
 * PDF): a session allowed this download (a PDF, figures only: support too; the CSV of charged
 * queries, which lists identifiers: administrators) and an existing integration.
 */
export async function statementDownloadAccess(id: string, download: 'pdf' | 'charges_csv'): Promise<{ integration: IntegrationView; userId: number } | Response> {
  const user = await consoleUserWithAccess();
  if (!user) return plainText(401, 'Su sesión terminó. Vuelva a iniciar sesión en /admin/login.');
  if (download === 'charges_csv' && user.role !== 'admin') return plainText(403, 'El CSV de consultas cobradas lo descarga un administrador.');
  const integration = /^\d{1,9}$/.test(id) ? await findIntegration(Number(id)) : undefined;
  if (!integration) return plainText(404, 'No existe esa integración.');
  return { integration, userId: user.id };
}

/**
 * An issued statement's download: the checks above, then a statement already issued for that
 * month (downloading never issues one).
 */
export async function statementForDownload(
  params: Promise<{ id: string; mes: string }>,
  download: 'pdf' | 'charges_csv',
): Promise<{ statement: Statement; nombre: string; userId: number } | Response> {
  const { id, mes } = await params;
  const access = await statementDownloadAccess(id, download);
  if (access instanceof Response) return access;
  if (!MONTH_PATTERN.test(mes)) return plainText(404, 'No existe ese estado de cuenta.');
  const statement = await findStatement(access.integration.id, mes);
  if (!statement) return plainText(404, `Todavía no se ha emitido el estado de cuenta de ${mes}: emítelo desde «Saldo y estados de cuenta» de la integración.`);
  return { statement, nombre: access.integration.nombre, userId: access.userId };
}

const log = logger('console');

/** A PDF and the name it downloads under. */
export interface PdfFile {
  pdf: Buffer;
  fileName: string;
}

/** An issued statement as PDF (administrators and support). */
export async function statementPdfFile(params: Promise<{ id: string; mes: string }>): Promise<PdfFile | Response> {
  const found = await statementForDownload(params, 'pdf');
  if (found instanceof Response) return found;
  const pdf = await renderStatementPdf(found.statement, env().SERVICE_NAME, await statementInvoices(found.statement));
  return { pdf, fileName: `estado-de-cuenta-${found.nombre}-${found.statement.month}.pdf` };
}

/** The charged queries of an issued statement's month as CSV (administrators). */
export async function statementChargesCsvDownload(params: Promise<{ id: string; mes: string }>): Promise<Response> {
  const found = await statementForDownload(params, 'charges_csv');
  if (found instanceof Response) return found;
  const { statement } = found;
  // The charged queries with their NITs and CUIs in full (the integrator's own): an export of
  // personal data, logged before it is sent.
  await writeAccessEntry({
    userId: found.userId,
    kind: 'export',
    details: { statement: { integration: found.nombre, month: statement.month }, rows: statement.figures.charges.count },
  });
  return new Response(
    statementChargesCsvStream(statement.integrationId, statement.month, (error) => log.error({ err: error, statementId: statement.id }, 'statement CSV failed')),
    {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="consultas-cobradas-${found.nombre}-${statement.month}.csv"`,
        'cache-control': 'no-store',
      },
    },
  );
}

const PREVIEW_PROBLEM_STATUS: Record<PreviewProblem, number> = { invalid_range: 400, records_purged: 400, not_found: 404, does_not_reconcile: 409 };

/** A statement's preview as PDF (administrators and support), its days from the posted form (desde, hasta). */
export async function statementPreviewPdfFile(request: Request, id: string): Promise<PdfFile | Response> {
  const access = await statementDownloadAccess(id, 'pdf');
  if (access instanceof Response) return access;
  const fields = await postedFormFields(request);
  if (!fields) return plainText(400, 'El formulario no es válido.');
  const range = parsePreviewRange({ desde: fields.get('desde') ?? undefined, hasta: fields.get('hasta') ?? undefined });
  if (!range.ok) return plainText(400, `${range.error.message} Vuelva a la vista previa y elija otras fechas.`);
  const preview = await previewStatement(access.integration.id, range.value);
  if (!preview.ok) return plainText(PREVIEW_PROBLEM_STATUS[preview.error.code], preview.error.message);
  const { desde, hasta } = range.value;
  const pdf = await renderStatementPreviewPdf(preview.value, env().SERVICE_NAME);
  return { pdf, fileName: `vista-previa-estado-de-cuenta-${access.integration.nombre}-${desde}-a-${hasta}.pdf` };
}
