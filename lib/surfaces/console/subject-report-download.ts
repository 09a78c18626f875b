import { consoleUserWithAccess } from '@/lib/flows/auth/session';
import { env } from '@/lib/platform/settings/env';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { SEARCH_REFERENCE_PARAM, searchedIdentifier } from '@/lib/core/personal-data/search-references';
import { EXPIRED_SEARCH_MESSAGE } from '@/lib/presentation/personal-data-labels';
import { produceSubjectReport, SUBJECT_REQUEST_PARAM, subjectIdentifierSchema, subjectReportCsv, subjectReportPdf, subjectRequestSchema } from './subject-report';

function plainText(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

/** Both downloads of the report: an administrator's session, a valid identifier and request reference, the report logged, then the file. */
export async function subjectReportDownload(request: Request, format: 'csv' | 'pdf'): Promise<Response> {
  const user = await consoleUserWithAccess();
  if (!user) return plainText(401, 'Su sesión terminó. Vuelva a iniciar sesión en /admin/login.');
  if (user.role !== 'admin') return plainText(403, 'El informe de quién consultó un identificador lo prepara un administrador.');
  const query = new URL(request.url).searchParams;
  // The identifier travels as the report page's search reference, never in the address.
  const identifier = await searchedIdentifier({ consoleUserId: user.id }, query.get(SEARCH_REFERENCE_PARAM) ?? '');
  if (identifier === undefined) return plainText(400, EXPIRED_SEARCH_MESSAGE);
  const parsed = subjectIdentifierSchema.safeParse(identifier);
  if (!parsed.success) return plainText(400, parsed.error.issues[0]!.message);
  const subjectRequest = subjectRequestSchema.safeParse(query.get(SUBJECT_REQUEST_PARAM) ?? '');
  if (!subjectRequest.success) return plainText(400, subjectRequest.error.issues[0]!.message);
  const report = await produceSubjectReport(user.id, parsed.data, format, subjectRequest.data);
  const filename = `quien-consulto-${guatemalanToday()}.${format}`;
  const headers = { 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' };
  if (format === 'csv') return new Response(subjectReportCsv(report), { headers: { ...headers, 'content-type': 'text/csv; charset=utf-8' } });
  return new Response(new Uint8Array(await subjectReportPdf(report, env().SERVICE_NAME)), { headers: { ...headers, 'content-type': 'application/pdf' } });
}
