// The filtered query records as CSV, streamed.
//   GET  /admin/registros/exportar?…filters   identifiers masked (admin and support).
//   POST /admin/registros/exportar            identifiers in full: an administrator, the list's
//        filters and a reason (motivo), written to the personal-data access log before anything
//        is sent. A search for a NIT or CUI travels as its reference (busqueda).
import { fullRecordsExport, maskedRecordsExport } from '@/lib/surfaces/console/records-export';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return maskedRecordsExport(request);
}

export async function POST(request: Request) {
  return fullRecordsExport(request);
}
