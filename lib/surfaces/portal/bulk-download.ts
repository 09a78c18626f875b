import { describeActor } from '@/lib/core/audit/audit';
import { csvHeader, csvLine, jobResults } from '@/lib/flows/bulk/results';
import { logger } from '@/lib/platform/logging/logger';
import { completeAccessEntry, writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { accessReasonSchema } from '@/lib/presentation/access-reason';
import { postedFormFields } from '@/lib/platform/http/posted-form';
import { plainText } from '@/lib/platform/http/plain-text';
import { portalDownloadPage } from './download-page';
import { PORTAL_DOWNLOAD_MESSAGES, portalDownloadUser } from './downloads';
import { BULK_JOB_RUNNERS } from '@/lib/flows/portal-identity/roles';

// "Descargar resultados (CSV)" on a job's page: the CSV GET /api/lotes/{id}/resultados streams
// (lib/flows/bulk/results.ts) as a person reads it (without the answer's JSON cell), for the
// session's integration's job only. The rows carry NITs, CUIs and
// names in full, so a download is an export of personal data: it asks for a reason and is written
// to the personal-data access log (the portal user as actor, as the record reveal is) before the
// first byte leaves, and the rows sent are added when the file ends.

export const BULK_DOWNLOAD_MESSAGES = {
  notFound: 'No existe ese lote en su integración (pudo haberse borrado al vencer sus resultados).',
  badForm: 'El formulario no es válido.',
  fromThePage: 'Los resultados se descargan desde la página del lote, con un motivo: la descarga queda registrada.',
} as const;

type JobParams = Promise<{ id: string }>;

/** GET: nothing is sent without a reason; answered only for the session's integration's job. */
export async function portalBulkResultsWithoutReason(params: JobParams): Promise<Response> {
  const user = await portalDownloadUser(BULK_JOB_RUNNERS);
  if (user instanceof Response) return user;
  const rows = await jobResults(user.integrationId, (await params).id);
  if (!rows) return portalDownloadPage(404, user, BULK_DOWNLOAD_MESSAGES.notFound, PORTAL_DOWNLOAD_MESSAGES.jobNotFoundHint);
  return plainText(405, BULK_DOWNLOAD_MESSAGES.fromThePage);
}

/** POST with motivo: the job's results as CSV, logged first. */
export async function portalBulkResultsDownload(request: Request, params: JobParams): Promise<Response> {
  const user = await portalDownloadUser(BULK_JOB_RUNNERS);
  if (user instanceof Response) return user;
  const posted = await postedFormFields(request);
  if (!posted) return plainText(400, BULK_DOWNLOAD_MESSAGES.badForm);
  const { id } = await params;
  const rows = await jobResults(user.integrationId, id);
  if (!rows) return portalDownloadPage(404, user, BULK_DOWNLOAD_MESSAGES.notFound, PORTAL_DOWNLOAD_MESSAGES.jobNotFoundHint);
  const reason = accessReasonSchema.safeParse(posted.get('motivo') ?? '');
  if (!reason.success) return plainText(400, `${reason.error.issues[0]!.message} Vuelva a la página del lote y descargue de nuevo.`);
  const log = logger('portal');
  // Logged before the first byte: a download that cannot be logged is not sent.
  const accessId = await writeAccessEntry({ actor: describeActor(user.actor), kind: 'export', reason: reason.data, details: { lote: id } });
  const encoder = new TextEncoder();
  const iterator = rows[Symbol.asyncIterator]();
  let headerSent = false;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvHeader(rows.catalog, 'person')));
        return;
      }
      try {
        const next = await iterator.next();
        if (!next.done) {
          sent += 1;
          controller.enqueue(encoder.encode(csvLine(next.value, rows.catalog, 'person')));
          return;
        }
        controller.close();
        await completeAccessEntry(accessId, { rows: sent }).catch((error: unknown) => log.error({ err: error, accessId }, 'bulk results row count not logged'));
      } catch (error) {
        log.error({ err: error, integrationId: user.integrationId }, 'portal bulk results CSV failed');
        controller.error(error);
      }
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${id}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
