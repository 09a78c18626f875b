// A query's constancia in the portal (Consultas, a query's page): who reads the records may see it
// and download its PDF with a reason, written to the personal-data access log before the file
// leaves the server (the PDF holds the identifiers in full).
import { describeActor } from '@/lib/core/audit/audit';
import { constanciaOfRequest } from '@/lib/core/constancias/read';
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { findIntegrationRecordDetail } from '@/lib/core/records/list';
import { isPlausibleRequestId, typedRequestId } from '@/lib/core/request-ids/search';
import { RECORD_READERS } from '@/lib/flows/portal-identity/roles';
import { constanciaPdfOf } from '@/lib/presentation/constancia-pdf';
import { plainText } from '@/lib/platform/http/plain-text';
import { postedFormFields } from '@/lib/platform/http/posted-form';
import { accessReasonSchema } from '@/lib/presentation/access-reason';
import { constanciaSummary, type ConstanciaSummary } from '@/lib/presentation/constancia-summary';
import { portalDownloadUser } from './downloads';
import type { PortalUserSession } from './session';

export const PORTAL_CONSTANCIA_MESSAGES = {
  reason: 'Indique el motivo (de 3 a 500 caracteres): el acceso queda registrado.',
  notFound: 'Esa consulta no tiene constancia en su integración, o su texto ya se depuró por antigüedad.',
} as const;

function portalConstanciaPath(requestId: string): string {
  return `/portal/consultas/${encodeURIComponent(requestId)}/constancia`;
}

/** The constancia of one of the integration's queries, for its page; undefined when it has none. */
export async function portalConstancia(user: PortalUserSession, requestIdText: string): Promise<ConstanciaSummary | undefined> {
  const requestId = typedRequestId(requestIdText);
  if (!requestId || !isPlausibleRequestId(requestId)) return undefined;
  const stored = await constanciaOfRequest(requestId, user.integrationId);
  return stored ? constanciaSummary(stored, portalConstanciaPath(requestId)) : undefined;
}

/** POST /portal/consultas/:solicitud/constancia with motivo: the PDF, or the answer refusing it. */
export async function portalConstanciaPdf(request: Request, params: Promise<{ solicitud: string }>): Promise<Response | { file: Buffer; fileName: string }> {
  const user = await portalDownloadUser(RECORD_READERS);
  if (user instanceof Response) return user;
  const posted = await postedFormFields(request);
  const reason = accessReasonSchema.safeParse(posted?.get('motivo') ?? '');
  if (!reason.success) return plainText(400, PORTAL_CONSTANCIA_MESSAGES.reason);
  const requestId = typedRequestId((await params).solicitud);
  const record = requestId && isPlausibleRequestId(requestId) ? await findIntegrationRecordDetail(user.integrationId, requestId) : undefined;
  const stored = requestId ? await constanciaOfRequest(requestId, user.integrationId) : null;
  const pdf = stored ? await constanciaPdfOf(stored) : null;
  if (!stored || !pdf) return plainText(404, PORTAL_CONSTANCIA_MESSAGES.notFound);
  await writeAccessEntry({ actor: describeActor(user.actor), kind: 'reveal', recordId: record?.record.id, reason: reason.data, details: { constancia: stored.id, documento: 'pdf' } });
  return pdf;
}
