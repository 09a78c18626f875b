// POST /admin/integraciones/:id/estados/vista-previa/pdf - a statement's preview as PDF (administrators and support).
// The days travel in the posted form (desde, hasta), not in the address: like an issued
// statement's download, the address names only the integration.
import { env } from '@/lib/platform/settings/env';
import { postedFormFields } from '@/lib/platform/http/posted-form';
import { plainText } from '@/lib/platform/http/plain-text';
import { statementDownloadAccess } from '@/lib/surfaces/console/statement-downloads';
import { renderStatementPreviewPdf } from '@/lib/flows/statements/pdf';
import { parsePreviewRange, previewStatement, type PreviewProblem } from '@/lib/flows/statements/preview';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

const PROBLEM_STATUS: Record<PreviewProblem, number> = { invalid_range: 400, records_purged: 400, not_found: 404, does_not_reconcile: 409 };

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const access = await statementDownloadAccess((await params).id, 'pdf');
  if (access instanceof Response) return access;
  const fields = await postedFormFields(request);
  if (!fields) return plainText(400, 'El formulario no es válido.');
  const range = parsePreviewRange({ desde: fields.get('desde') ?? undefined, hasta: fields.get('hasta') ?? undefined });
  if (!range.ok) return plainText(400, `${range.error.message} Vuelva a la vista previa y elija otras fechas.`);
  const preview = await previewStatement(access.integration.id, range.value);
  if (!preview.ok) return plainText(PROBLEM_STATUS[preview.error.code], preview.error.message);
  const { desde, hasta } = range.value;
  const pdf = await renderStatementPreviewPdf(preview.value, env().SERVICE_NAME);
  return pdfAttachment(pdf, `vista-previa-estado-de-cuenta-${access.integration.nombre}-${desde}-a-${hasta}.pdf`);
}
