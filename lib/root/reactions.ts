// The composition root's wiring of reactions to events: what the core and the flows emit
// (lib/*/events.ts), the alerts and the integrators' notices hear. Every process that changes things
// subscribes once before it does: the server at start (lib/root/startup.ts), the CLI (cli/main.ts), and a
// test that calls the domain directly and checks what was told.
import { noteAccountUnderAttack } from '@/lib/reactions/alerts/attack-notice';
import { alerts } from '@/lib/reactions/alerts/dispatcher';
import { signInFailedForAccount } from '@/lib/flows/auth/events';
import { balanceMayBeShort, balanceSeen, booksDoNotClose, saleAwaitsReceptor } from '@/lib/core/billing/events';
import { tokenCreated, tokenRevoked, tokenRotated } from '@/lib/core/credentials/events';
import { allowListChanged, lookupsChanged, tariffChanged } from '@/lib/core/integrations/events';
import { certifierCredentialsRefused, invoiceCertified } from '@/lib/flows/invoicing/events';
import { statementIssued } from '@/lib/flows/statements/events';
import { topUpApproved, topUpRejected } from '@/lib/flows/top-ups/events';
import { onlinePaymentMismatched, onlineTopUpCredited, onlineTopUpExpired } from '@/lib/flows/online-top-ups/events';
import { autoTopUpPaused } from '@/lib/flows/auto-top-ups/events';
import { recordProviderCall } from '@/lib/flows/online-top-ups/provider-health';
import { onPaymentProviderCall } from '@/lib/providers/payments/configured';
import { changedByOf } from '@/lib/reactions/integrator-notifications/kinds';
import { integratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

export function subscribeReactions(): void {
  if (peekProcessSlot('reactionsSubscribed')) return;
  setProcessSlot('reactionsSubscribed', true);
  signInFailedForAccount.subscribe(({ account, failures, realm }) => noteAccountUnderAttack(account, failures, realm));
  // Off the request path: at most a map lookup here, the alert is written and sent later.
  balanceSeen.subscribe((snapshot) => alerts().noteBalance(snapshot));
  balanceMayBeShort.subscribe((integration) => alerts().recordBalance(integration));
  // Invoices wait until the certifier's credentials are fixed: the administrators are told.
  certifierCredentialsRefused.subscribe(({ certifier, pausedUntil }) => alerts().noteCertifierCredentialsRefused(certifier, pausedUntil));
  // A top-up credited whose invoice waits for the NIT: whoever can give it is asked, the administrators told.
  saleAwaitsReceptor.subscribe(async (sale) => {
    await integratorNotifier().noteInvoiceAwaitingReceptor(sale);
    await alerts().recordInvoiceAwaitingReceptor(sale);
  });
  // Books that do not close (the reconciliation's last step): the administrators are told.
  booksDoNotClose.subscribe((books) => alerts().recordBooksDoNotClose(books));
  // A payment that does not match its checkout is credited by nobody: the administrators settle it.
  onlinePaymentMismatched.subscribe((payment) => alerts().recordPaymentMismatch(payment));
  // Each call to the payment provider is written down: Fuentes, the Panel and /estado read its health from them.
  onPaymentProviderCall(recordProviderCall);
  // The integration's contacts are told (queued here, delivered by the server's outbox).
  tokenCreated.subscribe(({ integration, token, actor }) => integratorNotifier().noteTokenCreated(integration, token, changedByOf(actor)));
  tokenRotated.subscribe(({ integration, replaced, token, actor }) => integratorNotifier().noteTokenRotated(integration, { replaced, token }, changedByOf(actor)));
  tokenRevoked.subscribe(({ integration, token }) => integratorNotifier().noteTokenRevoked(integration, token));
  lookupsChanged.subscribe(({ integration, enabled, disabled, changedAt }) => integratorNotifier().noteLookupsChanged(integration, { enabled, disabled, changedAt }));
  tariffChanged.subscribe(({ integration, previousCentavos, tariffCentavos, changedAt }) =>
    integratorNotifier().noteTariffChanged(integration, { previousCentavos, tariffCentavos, changedAt }),
  );
  allowListChanged.subscribe(({ integration, allowedNetworks, changedAt, actor }) =>
    integratorNotifier().noteAllowListChanged(integration, { allowedNetworks, changedAt }, changedByOf(actor)),
  );
  topUpApproved.subscribe(({ integration, request, balanceCentavos }) => integratorNotifier().noteTopUpApproved(integration, request, balanceCentavos));
  topUpRejected.subscribe(({ integration, request }) => integratorNotifier().noteTopUpRejected(integration, request));
  onlineTopUpCredited.subscribe(({ integration, payment, balanceCentavos }) => integratorNotifier().noteOnlineTopUpCredited(integration, payment, balanceCentavos));
  onlineTopUpExpired.subscribe(({ integration, payment }) => integratorNotifier().noteOnlineTopUpExpired(integration, payment));
  autoTopUpPaused.subscribe((paused) => integratorNotifier().noteAutoTopUpPaused(paused));
  statementIssued.subscribe(({ integration, statement, monthLabel }) => integratorNotifier().noteStatementIssued(integration, statement, monthLabel));
  // The billing contact gets each certified invoice's PDF, and the webhook its numbers (once per
  // invoice); a failure to queue them throws, and the invoice worker tells the invoice again.
  invoiceCertified.subscribe(({ invoiceId, integrationId }) => integratorNotifier().noteInvoiceIssued(invoiceId, integrationId));
}
