import { describeActor } from '@/lib/core/audit/audit';
import { logger } from '@/lib/platform/logging/logger';
import { completeAccessEntry, writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { accessReasonSchema } from '@/lib/presentation/access-reason';
import { postedFormFields } from '@/lib/platform/http/posted-form';
import { plainText } from '@/lib/platform/http/plain-text';
import { listNamedWatchListChanges, readWatchList } from '@/lib/flows/watch-lists';
import { watchChangeCsvLine, watchChangesCsvHeader } from '@/lib/flows/watch-lists/csv';
import { portalDownloadPage } from './download-page';
import { portalDownloadUser } from './downloads';
import { BULK_JOB_RUNNERS } from '@/lib/flows/portal-identity/roles';

// "Descargar cambios (CSV)" on a watch list's page: its changes, or one run's, with the NIT and the
// taxpayer's name in full, for the session's integration's list only. Who downloads a job's results
// downloads these (BULK_JOB_RUNNERS); like them it is an export of personal data: it asks for a
// reason and is written to the personal-data access log before the first byte leaves, and the rows
// sent are added when the file ends. The run travels in the form, never a NIT in the address.

export const WATCH_DOWNLOAD_MESSAGES = {
  notFound: 'No existe esa vigilancia en su integración.',
  notFoundHint: 'Revise el enlace: las vigilancias de su integración están en Vigilancia.',
  badForm: 'El formulario no es válido.',
  badRun: 'Elija una ejecución de la lista o «Todas las ejecuciones». Vuelva a la página de la vigilancia y descargue de nuevo.',
  fromThePage: 'Los cambios se descargan desde la página de la vigilancia, con un motivo: la descarga queda registrada.',
} as const;

/** Rows read per query while the file streams: constant memory for a list of 10,000 NITs. */
const DOWNLOAD_PAGE_ROWS = 500;

type ListParams = Promise<{ id: string }>;

/** GET: nothing is sent without a reason; answered only for the session's integration's list. */
export async function portalWatchChangesWithoutReason(params: ListParams): Promise<Response> {
  const user = await portalDownloadUser(BULK_JOB_RUNNERS);
  if (user instanceof Response) return user;
  if (!(await readWatchList(user.integrationId, (await params).id))) return portalDownloadPage(404, user, WATCH_DOWNLOAD_MESSAGES.notFound, WATCH_DOWNLOAD_MESSAGES.notFoundHint);
  return plainText(405, WATCH_DOWNLOAD_MESSAGES.fromThePage);
}

/** POST with motivo and ejecucion ("todas" or a run's number): the changes as CSV, logged first. */
export async function portalWatchChangesDownload(request: Request, params: ListParams): Promise<Response> {
  const user = await portalDownloadUser(BULK_JOB_RUNNERS);
  if (user instanceof Response) return user;
  const posted = await postedFormFields(request);
  if (!posted) return plainText(400, WATCH_DOWNLOAD_MESSAGES.badForm);
  const { id } = await params;
  const list = await readWatchList(user.integrationId, id);
  if (!list) return portalDownloadPage(404, user, WATCH_DOWNLOAD_MESSAGES.notFound, WATCH_DOWNLOAD_MESSAGES.notFoundHint);
  const runText = posted.get('ejecucion') ?? 'todas';
  if (runText !== 'todas' && !/^[1-9][0-9]{0,8}$/.test(runText)) return plainText(400, WATCH_DOWNLOAD_MESSAGES.badRun);
  const run = runText === 'todas' ? undefined : Number(runText);
  const reason = accessReasonSchema.safeParse(posted.get('motivo') ?? '');
  if (!reason.success) return plainText(400, `${reason.error.issues[0]!.message} Vuelva a la página de la vigilancia y descargue de nuevo.`);
  const log = logger('portal');
  // Logged before the first byte: a download that cannot be logged is not sent.
  const accessId = await writeAccessEntry({ actor: describeActor(user.actor), kind: 'export', reason: reason.data, details: { vigilancia: list.publicId, ejecucion: run ?? 'todas' } });
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let started = false;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(watchChangesCsvHeader()));
        return;
      }
      try {
        const page = await listNamedWatchListChanges(user.integrationId, list.publicId, cursor, { run, pageSize: DOWNLOAD_PAGE_ROWS });
        // Deleted while streaming: the file ends with what was sent.
        const changes = page === null || page === 'invalid_cursor' ? [] : page.changes;
        if (changes.length > 0) {
          sent += changes.length;
          controller.enqueue(encoder.encode(changes.map(watchChangeCsvLine).join('')));
        }
        cursor = page === null || page === 'invalid_cursor' ? undefined : page.next;
        if (cursor !== undefined) return;
        controller.close();
        await completeAccessEntry(accessId, { rows: sent }).catch((error: unknown) => log.error({ err: error, accessId }, 'watch list changes row count not logged'));
      } catch (error) {
        log.error({ err: error, integrationId: user.integrationId }, 'portal watch list changes CSV failed');
        controller.error(error);
      }
    },
  });
  const name = run === undefined ? `${list.publicId}-cambios.csv` : `${list.publicId}-ejecucion-${run}-cambios.csv`;
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    },
  });
}
