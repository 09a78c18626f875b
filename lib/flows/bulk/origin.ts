// Where a job came from, as its pages (the portal's and the console's) name it: the uploaded file's
// name, and who created it. The API's job status does not carry either: a token has no person, and
// an integrator's own system knows what it sent.
import { and, eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { bulkJobs, portalUsers } from '@/db/schema';

export type JobCreator =
  | { kind: 'portal'; name: string; email: string }
  | { kind: 'api' }
  | { kind: 'watch_list' }
  | { kind: 'retry' };

export interface JobOriginView {
  fileName: string | null;
  createdBy: JobCreator;
}

/** The job's origin, by its public id within an integration (the portal's scope) or within none (the console's). */
export async function readJobOrigin(publicId: string, integrationId?: number): Promise<JobOriginView | undefined> {
  const [row] = await (await db())
    .select({
      fileName: bulkJobs.fileName,
      watchListId: bulkJobs.watchListId,
      watchListRun: bulkJobs.watchListRun,
      retryOf: bulkJobs.retryOf,
      name: portalUsers.name,
      email: portalUsers.email,
    })
    .from(bulkJobs)
    .leftJoin(portalUsers, eq(portalUsers.id, bulkJobs.createdByPortalUserId))
    .where(and(eq(bulkJobs.publicId, publicId), integrationId === undefined ? undefined : eq(bulkJobs.integrationId, integrationId)));
  if (!row) return undefined;
  const createdBy: JobCreator =
    row.name !== null && row.email !== null
      ? { kind: 'portal', name: row.name, email: row.email }
      : row.watchListRun !== null
        ? { kind: 'watch_list' }
        : row.retryOf !== null
          ? { kind: 'retry' }
          : { kind: 'api' };
  return { fileName: row.fileName, createdBy };
}

/** "Creado por" in words; a portal user's e-mail is shown beside it by the page (components/email-address.tsx). */
export const JOB_CREATOR_LABELS: Record<Exclude<JobCreator['kind'], 'portal'>, string> = {
  api: 'API (con el token de la integración)',
  watch_list: 'Vigilancia (una revisión de la lista)',
  retry: 'API (reintento de los fallidos de otro lote)',
};

