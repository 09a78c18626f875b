// GET /portal/estados/:id/csv - the charged queries of an issued statement's month, identifiers masked.
import { logger } from '@/lib/platform/logging/logger';
import { portalStatementDownload } from '@/lib/surfaces/portal/downloads';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { statementChargesCsvStream } from '@/lib/flows/statements/csv';

export const dynamic = 'force-dynamic';

const log = logger('portal');

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalStatementDownload(BILLING_READERS, params);
  if (found instanceof Response) return found;
  const { statement, user } = found;
  // Masked as the portal shows identifiers everywhere: billing reads statements but not the query
  // records, and the identifiers in full would be those records by another door (docs/decisions.md).
  const stream = statementChargesCsvStream(
    statement.integrationId,
    statement.month,
    (error) => log.error({ err: error, statementId: statement.id }, 'portal statement CSV failed'),
    'masked',
  );
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="consultas-cobradas-${user.integrationName}-${statement.month}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
