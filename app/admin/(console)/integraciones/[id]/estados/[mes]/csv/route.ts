// GET /admin/integraciones/:id/estados/:mes/csv - the charged queries of an issued statement's month (admin).
import { logger } from '@/lib/platform/logging/logger';
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { statementChargesCsvStream } from '@/lib/flows/statements/csv';
import { statementForDownload } from '@/lib/surfaces/console/statement-downloads';

export const dynamic = 'force-dynamic';

const log = logger('console');

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; mes: string }> }) {
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
