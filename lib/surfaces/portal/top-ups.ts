import { headers } from 'next/headers';
import { publishedInvoicing } from '@/lib/core/invoices/decision';
import { ONLINE_TOP_UP_MESSAGES, onlineTopUpQuoteMessage } from '@/lib/flows/online-top-ups/messages';
import { cancelOnlineTopUp, integrationOnlinePayments, onlineTopUpNeedsReceptor, quoteOnlineTopUp, startOnlineTopUp, type OnlineTopUpQuote } from '@/lib/flows/online-top-ups/payments';
import { onlineTopUpSettings } from '@/lib/flows/online-top-ups/settings';
import { TOP_UP_MESSAGES } from '@/lib/flows/top-ups/messages';
import {
  cancelTopUpRequest,
  creditedCentavos,
  earliestDepositDate,
  findTopUpSlip,
  integrationTopUpPage,
  reportTopUp,
  TOP_UP_CANCELLERS_OF_OTHERS,
  type TopUpRequestView,
} from '@/lib/flows/top-ups/requests';
import { topUpSettings, type TopUpBankAccount } from '@/lib/flows/top-ups/settings';
import { MAX_SLIP_BYTES, SLIP_MESSAGES, SLIP_NOT_FOUND, slipFile, slipRequestId } from '@/lib/flows/top-ups/slips';
import type { UploadedFile } from '@/lib/platform/http/uploaded-file';
import { TOP_UP_REPORTERS } from '@/lib/flows/portal-identity/roles';
import { publicOrigin } from '@/lib/platform/http/base-url';
import { formatQuetzales } from '@/lib/platform/money';
import { bankName } from '@/lib/platform/guatemala/banks';
import { receptorText } from '@/lib/presentation/invoice-labels';
import { receptorId } from '@/lib/providers/fel/document';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';
import { portalDownloadPage } from './download-page';
import { PORTAL_DOWNLOAD_MESSAGES, portalDownloadUser } from './downloads';
import { portalTopUpFacts } from './home';
import { portalBillingReceptor } from './invoices';
import type { PortalUserSession } from './session';

// "Recargas": the session's integration's deposit reports and online payments (lib/flows/top-ups,
// lib/flows/online-top-ups), what the page shows and what its forms do, always for the session's
// integration. Nothing moves money here: an administrator approves a report in the console, and an
// online payment is credited when the provider confirms it.

/** A reported deposit as the list shows it: what was credited, and whether this person may cancel it. */
export type PortalTopUpRow = TopUpRequestView & {
  /** What was credited (an administrator may credit another amount than the one reported). */
  creditedAmountCentavos: number;
  /** Pending reports are cancelled by their reporter, or by an owner (the reporter may have left). */
  mayCancel: boolean;
};

export interface PortalTopUpsPage {
  rows: PortalTopUpRow[];
  /** The cursor of the next (older) page. */
  next?: string;
  balanceCentavos: number;
  /** The login a deposit's slip should carry. */
  login: string;
  onlinePayments: Awaited<ReturnType<typeof integrationOnlinePayments>>;
  /** Whether the service issues invoices ("Sus facturas" is shown only then). */
  invoicingOn: boolean;
  /** Whether a receptor was registered (else invoices name consumidor final), and how it reads. */
  receptorSet: boolean;
  receptorLine: string;
  /** Paying online is offered only while a provider is configured; payments made before stay listed. */
  paysOnline: boolean;
  onlineLimits: { minCentavos: number; maxCentavos: number };
  bankAccounts: readonly TopUpBankAccount[];
  /** The oldest deposit a report may name, and how many days back that is. */
  earliestDepositDate: string;
  depositMaxAgeDays: number;
}

/** "Recargas"' page: one page of the reports (`after`: the cursor), the online payments, the billing note and the deposit accounts. */
export async function portalTopUpsPage(user: PortalUserSession, after: string | undefined): Promise<PortalTopUpsPage> {
  const [page, { balanceCentavos, login }, onlinePayments, billing, invoicing] = await Promise.all([
    integrationTopUpPage(user.integrationId, after),
    portalTopUpFacts(user),
    integrationOnlinePayments(user.integrationId),
    portalBillingReceptor(user),
    publishedInvoicing(),
  ]);
  const receptor = billing.receptor;
  const limits = onlineTopUpSettings();
  const settings = topUpSettings();
  return {
    rows: page.rows.map((request) => ({
      ...request,
      creditedAmountCentavos: creditedCentavos(request),
      mayCancel: request.reportedBy === user.id || TOP_UP_CANCELLERS_OF_OTHERS.includes(user.role),
    })),
    next: page.next,
    balanceCentavos,
    login,
    onlinePayments,
    invoicingOn: invoicing === 'on',
    receptorSet: billing.set,
    receptorLine: receptorText({ receptorKind: receptor.kind, receptorId: receptorId(receptor), receptorName: receptor.kind === 'cf' ? null : receptor.name }),
    paysOnline: configuredPaymentProvider() !== null,
    onlineLimits: { minCentavos: limits.ONLINE_TOP_UP_MIN_CENTAVOS, maxCentavos: limits.ONLINE_TOP_UP_MAX_CENTAVOS },
    bankAccounts: settings.TOP_UP_BANK_ACCOUNTS,
    earliestDepositDate: earliestDepositDate(),
    depositMaxAgeDays: settings.TOP_UP_DEPOSIT_MAX_AGE_DAYS,
  };
}

/** The slip a report may carry: its largest size and the words for a wrong one. */
export const PORTAL_SLIP_RULES = { maxBytes: MAX_SLIP_BYTES, messages: SLIP_MESSAGES } as const;

/** The words of the online payment's forms (a payment not found, cancelled, no longer cancellable). */
export { ONLINE_TOP_UP_MESSAGES };

type FormOutcome = { ok: false; message: string; fieldErrors?: Record<string, string> } | { ok: true; message: string };

/**
 * Reports a deposit or transfer for the session's integration (with its slip, when sent), as
 * pending: what the person is told, with a reminder when its invoice will wait for a NIT.
 */
export async function reportPortalTopUp(
  user: PortalUserSession,
  report: { bank: string; reference: string; depositDate: string; amountCentavos: number; slip?: Uint8Array },
): Promise<FormOutcome> {
  const result = await reportTopUp(user, report);
  if (!result.ok) return { ok: false, message: result.error.message, fieldErrors: result.fieldErrors };
  return {
    ok: true,
    message: `Reportó el depósito de ${formatQuetzales(result.value.amountCentavos)} en ${bankName(result.value.bank)}, referencia ${result.value.reference}. La administración lo revisará; el saldo cambia cuando lo apruebe.${
      (await onlineTopUpNeedsReceptor(user.integrationId, result.value.amountCentavos)) ? ` ${TOP_UP_MESSAGES.receptorMissing}` : ''
    }`,
  };
}

/** A pending report withdrawn by its reporter or an owner (lib/flows/top-ups/requests.ts). */
export function cancelPortalTopUpRequest(user: PortalUserSession, requestId: number) {
  return cancelTopUpRequest(user, requestId);
}

/**
 * "Pagar en línea", first step: what will be credited, the fee and the total, before paying; refused
 * when no provider is configured, and said before the person goes on to pay when such a payment
 * would not be started (an amount whose invoice needs a NIT the integration has not registered).
 */
export async function quotePortalOnlineTopUp(user: PortalUserSession, amountCentavos: number): Promise<(FormOutcome & { ok: false }) | { ok: true; message: string; quote: OnlineTopUpQuote }> {
  if (configuredPaymentProvider() === null) return { ok: false, message: ONLINE_TOP_UP_MESSAGES.off };
  const quote = quoteOnlineTopUp(amountCentavos);
  if (!quote.ok) return { ok: false, message: quote.error.message, fieldErrors: { monto: quote.error.message } };
  if (await onlineTopUpNeedsReceptor(user.integrationId, quote.value.amountCentavos)) {
    return { ok: false, message: ONLINE_TOP_UP_MESSAGES.receptorNeeded, fieldErrors: { monto: ONLINE_TOP_UP_MESSAGES.receptorNeeded } };
  }
  return { ok: true, message: onlineTopUpQuoteMessage(quote.value), quote: quote.value };
}

/**
 * "Pagar en línea", confirmed: the top-up and its hosted checkout. The return addresses carry only
 * our top-up's id, and the page there reads our own row, never the browser's word.
 */
export async function startPortalOnlineTopUp(user: PortalUserSession, amountCentavos: number) {
  const origin = publicOrigin(await headers());
  const returnPage = (id: string) => `${origin}/portal/recargas/pagos/${id}`;
  return startOnlineTopUp(configuredPaymentProvider(), user, amountCentavos, { successUrl: returnPage, cancelUrl: (id) => `${returnPage(id)}?cancelado=1` });
}

/** «Cancelar este pago»: a checkout of the session's integration that nobody paid is given up. */
export function cancelPortalOnlineTopUp(user: PortalUserSession, paymentId: string) {
  return cancelOnlineTopUp(user, paymentId);
}

/** GET /portal/recargas/:id/boleta: the deposit slip of one of the session's integration's reports. */
export async function portalTopUpSlipDownload(params: Promise<{ id: string }>): Promise<Response | UploadedFile> {
  const user = await portalDownloadUser(TOP_UP_REPORTERS);
  if (user instanceof Response) return user;
  const requestId = slipRequestId((await params).id);
  // Another integration's request, one without a slip and one that does not exist read the same.
  const slip = requestId === undefined ? undefined : await findTopUpSlip(requestId, user.integrationId);
  if (!slip) return portalDownloadPage(404, user, SLIP_NOT_FOUND, PORTAL_DOWNLOAD_MESSAGES.slipNotFoundHint);
  return slipFile(requestId!, slip, 'attachment');
}
