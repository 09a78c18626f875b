// A query's constancia in the console (Registros, a query's page): support and administrators may
// download its PDF with a reason, written to the personal-data access log before the file leaves.
import { constanciaOfRequest } from '@/lib/core/constancias/read';
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { findRecordDetail } from '@/lib/core/records/list';
import { consoleUserWithAccess } from '@/lib/flows/auth/session';
import { constanciaPdfOf } from '@/lib/presentation/constancia-pdf';
import { plainText } from '@/lib/platform/http/plain-text';
import { postedFormFields } from '@/lib/platform/http/posted-form';
import { accessReasonSchema } from '@/lib/presentation/access-reason';
import { constanciaSummary, type ConstanciaSummary } from '@/lib/presentation/constancia-summary';

export const CONSOLE_CONSTANCIA_MESSAGES = {
  signedOut: 'Su sesión terminó: vuelva a entrar a la consola.',
  reason: 'Indique el motivo (de 3 a 500 caracteres): el acceso queda registrado.',
  notFound: 'Esa consulta no tiene constancia, o su texto ya se depuró por antigüedad.',
} as const;

/** The constancia of a query, by its record's request id, for its page. */
export async function consoleConstancia(recordId: number, requestId: string): Promise<ConstanciaSummary | undefined> {
  const stored = await constanciaOfRequest(requestId);
  return stored ? constanciaSummary(stored, `/admin/registros/${recordId}/constancia`) : undefined;
}

/** POST /admin/registros/:id/constancia with motivo: the PDF, or the answer refusing it. */
export async function consoleConstanciaPdf(request: Request, id: string): Promise<Response | { file: Buffer; fileName: string }> {
  const user = await consoleUserWithAccess();
  if (!user) return plainText(401, CONSOLE_CONSTANCIA_MESSAGES.signedOut);
  const posted = await postedFormFields(request);
  const reason = accessReasonSchema.safeParse(posted?.get('motivo') ?? '');
  if (!reason.success) return plainText(400, CONSOLE_CONSTANCIA_MESSAGES.reason);
  const detail = /^\d{1,18}$/.test(id) ? await findRecordDetail(Number(id)) : undefined;
  const stored = detail ? await constanciaOfRequest(detail.record.requestId) : null;
  const pdf = stored ? await constanciaPdfOf(stored) : null;
  if (!detail || !stored || !pdf) return plainText(404, CONSOLE_CONSTANCIA_MESSAGES.notFound);
  await writeAccessEntry({ userId: user.id, kind: 'reveal', recordId: detail.record.id, reason: reason.data, details: { constancia: stored.id, documento: 'pdf' } });
  return pdf;
}
