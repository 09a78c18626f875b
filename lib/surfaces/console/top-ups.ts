// «Recargas»: the deposits reported and waiting (oldest first, those that may be one deposit named
// on each other), the decided ones, the online payments and the automatic top-ups in use.
import { autoTopUpsInUse } from '@/lib/flows/auto-top-ups/auto-top-ups';
import { recentOnlinePayments } from '@/lib/flows/online-top-ups/payments';
import { decidedTopUpPage, findTopUpSlip, pendingTopUpCount, pendingTopUpPage, referenceDuplicates, type TopUpRequestView } from '@/lib/flows/top-ups/requests';
import { SLIP_NOT_FOUND, slipFile, slipRequestId } from '@/lib/flows/top-ups/slips';
import { plainText } from '@/lib/platform/http/plain-text';
import type { UploadedFile } from '@/lib/platform/http/uploaded-file';
import { consoleUserWithAccess } from './session';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';

/** The words and sizes the page shows: the requests' states, the automatic top-ups' states, the notice when online payments are off. */
export { TOP_UP_STATE_LABELS } from '@/lib/flows/top-ups/labels';
export { AUTO_TOP_UP_STATE_LABELS } from '@/lib/flows/auto-top-ups/messages';
export { ONLINE_PAYMENTS_OFF_NOTICE } from '@/lib/flows/online-top-ups/messages';
export { TOP_UP_PAGE_SIZE } from '@/lib/flows/top-ups/requests';

/** What an approved request credited (the amount approved, or the one reported). */
export { creditedCentavos } from '@/lib/flows/top-ups/requests';

/** Whether a slip is a photo (shown on the page) rather than a PDF (downloaded). */
export { isImageSlip } from '@/lib/flows/top-ups/slips';

export async function topUpsView(after: string | undefined, historyAfter: string | undefined) {
  const [page, pending, duplicates, history, onlinePayments, automatic] = await Promise.all([
    pendingTopUpPage(after),
    pendingTopUpCount(),
    referenceDuplicates(),
    decidedTopUpPage(historyAfter),
    recentOnlinePayments(),
    autoTopUpsInUse(),
  ]);
  // Requests reported before references were compared by letters and digits may be one deposit:
  // each card names the others, so the deposit is credited once.
  const sharing = new Map<number, TopUpRequestView[]>();
  for (const group of duplicates) for (const request of group.requests) sharing.set(request.id, group.requests.filter((other) => other.id !== request.id));
  return { page, pending, sharing, history, onlinePayments, automatic, paymentsOn: configuredPaymentProvider() !== null };
}

/**
 * GET /admin/recargas/:id/boleta: a top-up request's deposit slip for a signed-in console user (a
 * photo shown inline in "Recargas pendientes", a PDF downloaded), or the answer that refuses it.
 */
export async function consoleTopUpSlipDownload(params: Promise<{ id: string }>): Promise<Response | UploadedFile> {
  if (!(await consoleUserWithAccess())) return plainText(401, 'Su sesión terminó o ya no es válida. Vuelva a iniciar sesión.');
  const requestId = slipRequestId((await params).id);
  const slip = requestId === undefined ? undefined : await findTopUpSlip(requestId);
  if (!slip) return plainText(404, SLIP_NOT_FOUND);
  return slipFile(requestId!, slip, 'inline');
}
