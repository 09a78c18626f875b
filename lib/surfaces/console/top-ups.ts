// «Recargas»: the deposits reported and waiting (oldest first, those that may be one deposit named
// on each other), the decided ones, the online payments and the automatic top-ups in use.
import { autoTopUpsInUse } from '@/lib/flows/auto-top-ups/auto-top-ups';
import { recentOnlinePayments } from '@/lib/flows/online-top-ups/payments';
import { decidedTopUpPage, pendingTopUpCount, pendingTopUpPage, referenceDuplicates, type TopUpRequestView } from '@/lib/flows/top-ups/requests';
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
