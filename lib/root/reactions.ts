// The composition root's wiring of reactions to events: what the core and the flows emit
// (lib/*/events.ts), the alerts and the integrators' notices hear. Every process that changes things
// subscribes once before it does: the server at start (lib/root/startup.ts), the CLI (cli/main.ts), and a
// test that calls the domain directly and checks what was told.
import { noteAccountUnderAttack } from '@/lib/reactions/alerts/attack-notice';
import { alerts } from '@/lib/reactions/alerts/dispatcher';
import { signInFailedForAccount } from '@/lib/flows/auth/events';
import { balanceMayBeShort, balanceSeen, booksDoNotClose, saleAwaitsReceptor } from '@/lib/core/billing/events';
import { certifierCredentialsRefused } from '@/lib/flows/invoicing/events';
import { onlinePaymentMismatched } from '@/lib/flows/online-top-ups/events';
import { recordProviderCall } from '@/lib/flows/online-top-ups/provider-health';
import { onPaymentProviderCall } from '@/lib/providers/payments/configured';
import { listen } from '@/lib/reactions/integrator-notifications/hearing';
import { NOTIFICATIONS } from '@/lib/reactions/integrator-notifications/kinds';
import { integratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

export function subscribeReactions(): void {
  if (peekProcessSlot('reactionsSubscribed')) return;
  setProcessSlot('reactionsSubscribed', true);
  // Each notice kind told by a domain event (its file in lib/reactions/integrator-notifications/kinds says
  // which): the integration's contacts are told, queued here and delivered by the server's outbox. First,
  // so an integrator hears of a sale awaiting its NIT before the administrators' alert is written.
  for (const kind of NOTIFICATIONS.declarations) listen(kind, integratorNotifier);
  signInFailedForAccount.subscribe(({ account, failures, realm }) => noteAccountUnderAttack(account, failures, realm));
  // Off the request path: at most a map lookup here, the alert is written and sent later.
  balanceSeen.subscribe((snapshot) => alerts().noteBalance(snapshot));
  balanceMayBeShort.subscribe((integration) => alerts().recordBalance(integration));
  // Invoices wait until the certifier's credentials are fixed: the administrators are told.
  certifierCredentialsRefused.subscribe(({ certifier, pausedUntil }) => alerts().noteCertifierCredentialsRefused(certifier, pausedUntil));
  // A top-up credited whose invoice waits for the NIT: whoever can give it is asked (its notice, above), the administrators told.
  saleAwaitsReceptor.subscribe((sale) => alerts().recordInvoiceAwaitingReceptor(sale));
  // Books that do not close (the reconciliation's last step): the administrators are told.
  booksDoNotClose.subscribe((books) => alerts().recordBooksDoNotClose(books));
  // A payment that does not match its checkout is credited by nobody: the administrators settle it.
  onlinePaymentMismatched.subscribe((payment) => alerts().recordPaymentMismatch(payment));
  // Each call to the payment provider is written down: Fuentes, the Panel and /estado read its health from them.
  onPaymentProviderCall(recordProviderCall);
}
