// GET /portal/estados/vista-previa/pdf - the running month's statement preview of the session's integration, as PDF.
import { env } from '@/lib/platform/settings/env';
import { portalDownloadPage } from '@/lib/surfaces/portal/download-page';
import { portalDownloadUser } from '@/lib/surfaces/portal/downloads';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { portalStatementPreview } from '@/lib/surfaces/portal/statements';
import { renderStatementPreviewPdf } from '@/lib/flows/statements/pdf';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET() {
  const user = await portalDownloadUser(BILLING_READERS);
  if (user instanceof Response) return user;
  const preview = await portalStatementPreview(user);
  // The running month always exists and its records are kept: what remains is figures that do not reconcile.
  if (!preview.ok) return portalDownloadPage(409, user, 'No se pudo preparar la vista previa', preview.error.message);
  const { desde, hasta } = preview.value.range;
  const pdf = await renderStatementPreviewPdf(preview.value, env().SERVICE_NAME);
  return pdfAttachment(pdf, `vista-previa-estado-de-cuenta-${user.integrationName}-${desde}-a-${hasta}.pdf`);
}
