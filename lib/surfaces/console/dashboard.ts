// The Panel: the period's usage and refusals, the integrations low on balance, the certifier's and
// the payment provider's health, and the ledger's reconciliation (the latest full one, and the
// newest run while it goes or when someone started it here).
import type { LedgerVerification } from '@/db/schema';
import { latestVerification, newestVerification, verificationState, type VerificationState } from '@/lib/core/billing/verify';
import { verificationStarterName } from '@/lib/core/billing/verify-now';
import { certifierHealth } from '@/lib/core/invoices/health';
import { loadDashboard, parseDashboardRange, type DashboardRange } from '@/lib/core/rollups/usage';
import { providerHealth } from '@/lib/flows/online-top-ups/provider-health';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';
import { DASHBOARD_RANGE_LABELS } from '@/lib/presentation/labels';
import { integrationName, integrationNames } from '@/lib/surfaces/console/integrations';

/** The periods the Panel offers (their labels), and how many integrations low on balance it lists. */
export { LOW_BALANCE_SHOWN } from '@/lib/core/rollups/usage';

/** The period the address asks for (?rango=), the default one otherwise. */
export function dashboardRangeOf(params: Record<string, string | string[] | undefined>): DashboardRange {
  return parseDashboardRange(typeof params.rango === 'string' ? params.rango : undefined);
}

export interface NewestVerificationView {
  run: LedgerVerification;
  state: VerificationState;
  /** The console user who started it, by name. */
  startedBy: string | undefined;
  /** The name of the integration a one-integration run covered. */
  scopeName: string | undefined;
}

/** The Panel for a period; `now` is when its runs' progress was read (the page says how long one has run). */
export async function dashboardView(range: DashboardRange) {
  const paymentsOn = configuredPaymentProvider() !== null;
  const [dashboard, reconciliation, newest, certifier, payments] = await Promise.all([
    loadDashboard(range),
    latestVerification(),
    newestVerification(),
    certifierHealth(),
    paymentsOn ? providerHealth() : null,
  ]);
  // The newest run is reported on its own when someone started it here, or while it is under way
  // (or ended without a verdict); the latest full reconciliation is shown unless that is the same run.
  const now = new Date();
  const showNewest = newest !== undefined && (newest.trigger === 'console' || !newest.finishedAt || newest.failure !== null);
  const running = newest !== undefined && verificationState(newest, now) === 'running';
  // The integrations a finding names, by name (a person reads «acme», not an id).
  const names = await integrationNames(((reconciliation?.differences ?? []) as Array<{ integrationId: number }>).map((difference) => difference.integrationId));
  const [starter, scopeName] = showNewest
    ? await Promise.all([verificationStarterName(newest), newest.scope === 'all' ? undefined : integrationName(Number(newest.scope))])
    : [undefined, undefined];
  const newestView: NewestVerificationView | undefined = showNewest ? { run: newest, state: verificationState(newest, now), startedBy: starter, scopeName } : undefined;
  return {
    now,
    rangeLabel: DASHBOARD_RANGE_LABELS[range],
    dashboard,
    certifier,
    payments,
    reconciliation,
    names,
    newest: newestView,
    running,
    /** Whether the latest full reconciliation is shown besides (it is not the newest run shown). */
    showLatest: !showNewest || reconciliation?.id !== newest.id,
  };
}
