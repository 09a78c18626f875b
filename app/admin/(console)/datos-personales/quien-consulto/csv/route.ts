// GET /admin/datos-personales/quien-consulto/csv?busqueda=bq_… (the page's search reference) - "¿Quién consultó este CUI o NIT?" as CSV (admin), logged.
import { subjectReportDownload } from '@/lib/surfaces/console/subject-report-download';

export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  return subjectReportDownload(request, 'csv');
}
