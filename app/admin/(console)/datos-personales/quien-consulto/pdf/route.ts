// GET /admin/datos-personales/quien-consulto/pdf?busqueda=bq_… (the page's search reference) - "¿Quién consultó este CUI o NIT?" as PDF (admin), logged.
import { subjectReportDownload } from '@/lib/surfaces/console/subject-report-download';

export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  return subjectReportDownload(request, 'pdf');
}
