import type { LookupKind } from '@/db/schema';
import { lowBalanceThreshold } from '@/lib/reactions/alerts/conditions';
import { recentMonthsSpending, type MonthSpending } from '@/lib/flows/statements/spending';
import { loadDashboard, type Dashboard } from '@/lib/core/rollups/usage';
import { env } from '@/lib/platform/settings/env';
import { balanceSettings } from '@/lib/core/billing/settings';
import { guatemalanToday, startOfGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { LOOKUPS } from '@/lib/vocabulary/labels';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import { findIntegration, type IntegrationView } from '@/lib/flows/integration-management/service';
import { integrationLimitPerMinute, peekIntegrationLimit } from '@/lib/core/limits/limits';
import { LOOKUP_LIMITED_ROUTES, type LimitedRoute } from '@/lib/vocabulary/lookups';
import { logger } from '@/lib/platform/logging/logger';
import { refusalCells } from '@/lib/core/rollups/read';
import type { SourceState } from '@/lib/reactions/status-page/states';
import { publicStatus } from '@/lib/reactions/status-page/status';
import { BALANCE_READERS, BILLING_READERS, LOOKUP_READERS, NOTIFICATION_MANAGERS, USAGE_READERS } from '@/lib/flows/portal-identity/roles';
import type { PortalUserSession } from './session';

// Inicio: the session's integration now, each part only for the roles that
// may read it. Every figure comes from a service the console or the status page already reads:
// the integration's row, the ledger (lib/flows/statements/spending.ts), the rollups the console's "Uso"
// reads, the limiter's own store, and the public status. Nothing here scans the query records.

/** The balance, read-only, for every role (BALANCE_READERS): developers are the ones who see the 402s. */
export interface PortalHomeBalance {
  balanceCentavos: number;
  /** Below this the administrators (and the integration's contacts) are told; 0: only when exhausted. */
  lowBalanceCentavos: number;
  /** Whether the threshold is the integration's own or the service's default. */
  lowBalanceIsOwn: boolean;
  /** How many catalog lookups the balance pays; null when they cost nothing. */
  lookupsLeft: number | null;
  /** Under the low-balance threshold while still paying a catalog lookup (the low-balance notice's condition, short of exhausted). */
  low: boolean;
}

/** The money, for owners and billing (BILLING_READERS). */
export interface PortalHomeMoney {
  tariffCentavos: number;
  /** What each constancia de consulta costs, when the integration's lookups may ask for one; null when they may not. */
  constanciaTariffCentavos: number | null;
  currentMonth: MonthSpending;
  previousMonth: MonthSpending;
}

/** One per-minute limit the integration spends from, and how much of it it uses. */
export interface PortalMinuteLimit {
  route: LimitedRoute;
  /** The enabled lookups that spend from it (the three catalogs share one). */
  lookups: LookupKind[];
  perMinute: number;
  /** Spent in the one-minute window open now, as the limiter counts it; null when its store did not answer. */
  usedThisMinute: number | null;
  /** Today's queries (Guatemalan day) of these lookups, from the rollups. */
  queriesToday: number;
  /** Today's requests answered 429 because this limit was spent. */
  refusedToday: number;
}

/** The use, for owners and developers (USAGE_READERS). */
export interface PortalHomeUsage {
  /** The last 30 days (Guatemalan days, today included), from the integration's rollups. */
  dashboard: Dashboard;
  limits: PortalMinuteLimit[];
}

/** The sources' state as /estado shows it (the same cached status). */
export interface PortalHomeSources {
  estado: SourceState;
  texto: string;
  fuentes: Array<{ nombre: string; estado: SourceState }>;
}

export interface PortalHome {
  integrationName: string;
  active: boolean;
  /** Null for a role that does not read the balance. */
  balance: PortalHomeBalance | null;
  /** Null for a role that does not read the money. */
  money: PortalHomeMoney | null;
  /** Null for a role that does not read the use. */
  usage: PortalHomeUsage | null;
  /** Whether the balance no longer pays one catalog lookup (they answer 402): said to every role, without amounts. */
  catalogsNeedBalance: boolean;
  /** Null until this instance has read the status once. */
  sources: PortalHomeSources | null;
  /** Each lookup and whether it is enabled, in the contract's order; null for a role that does not read them. */
  lookups: Array<{ lookup: LookupKind; enabled: boolean }> | null;
  /** Whom to ask for what only the service's administrators change (the deployment's SUPPORT_CONTACT_EMAIL, as /docs says it). */
  supportEmail: string | null;
  /** The notification contacts with no address, so no one is told what is theirs (the low balance is billing's); null for a role that does not set them. */
  missingContacts: Array<'technical' | 'billing'> | null;
}

const log = logger('portal');

/** The session's integration's balance now, alone (Movimientos' header): through the integrations service, as Inicio's. */
export async function portalBalance(user: PortalUserSession): Promise<number> {
  return (await sessionIntegration(user)).balanceCentavos;
}

/** Recargas' header and deposit note: the balance now and the login the slip should carry. */
export async function portalTopUpFacts(user: PortalUserSession): Promise<{ balanceCentavos: number; login: string }> {
  const integration = await sessionIntegration(user);
  return { balanceCentavos: integration.balanceCentavos, login: integration.nombre };
}

async function sessionIntegration(user: PortalUserSession): Promise<IntegrationView> {
  const integration = await findIntegration(user.integrationId);
  if (!integration) throw new Error(`the session's integration ${user.integrationId} does not exist`);
  return integration;
}

/**
 * Inicio's figures for the session's integration only (there is no parameter that could name
 * another), and only the parts the session's role may read.
 */
export async function portalHome(user: PortalUserSession, now = new Date()): Promise<PortalHome> {
  const integration = await findIntegration(user.integrationId);
  if (!integration) throw new Error(`the session's integration ${user.integrationId} does not exist`);
  const [money, usage, sources] = await Promise.all([
    BILLING_READERS.includes(user.role) ? homeMoney(integration, now) : null,
    USAGE_READERS.includes(user.role) ? homeUsage(integration, now) : null,
    homeSources(),
  ]);
  const catalogsNeedBalance = integration.tariffCentavos > 0 && integration.balanceCentavos < integration.tariffCentavos;
  const missingContacts = (['technical', 'billing'] as const).filter((contact) => !(contact === 'technical' ? integration.technicalContactEmail : integration.billingContactEmail));
  return {
    integrationName: integration.nombre,
    active: integration.active,
    balance: BALANCE_READERS.includes(user.role) ? homeBalance(integration, catalogsNeedBalance) : null,
    money,
    usage,
    catalogsNeedBalance,
    sources,
    lookups: LOOKUP_READERS.includes(user.role) ? LOOKUPS.map((lookup) => ({ lookup, enabled: integration[LOOKUP_FLAGS[lookup]] })) : null,
    supportEmail: env().SUPPORT_CONTACT_EMAIL ?? null,
    missingContacts: NOTIFICATION_MANAGERS.includes(user.role) ? missingContacts : null,
  };
}

function homeBalance(integration: IntegrationView, exhausted: boolean): PortalHomeBalance {
  const threshold = lowBalanceThreshold(integration, { lowBalanceDefaultCentavos: balanceSettings().ALERT_LOW_BALANCE_DEFAULT_CENTAVOS });
  return {
    balanceCentavos: integration.balanceCentavos,
    lowBalanceCentavos: threshold,
    lowBalanceIsOwn: integration.lowBalanceAlertCentavos !== null,
    lookupsLeft: integration.tariffCentavos > 0 ? Math.floor(integration.balanceCentavos / integration.tariffCentavos) : null,
    // Exhausted has its own notice (the 402s), as the notifications tell one or the other.
    low: !exhausted && integration.balanceCentavos < threshold,
  };
}

async function homeMoney(integration: IntegrationView, now: Date): Promise<PortalHomeMoney> {
  const spending = await recentMonthsSpending(integration.id, now);
  return {
    tariffCentavos: integration.tariffCentavos,
    constanciaTariffCentavos: integration.constanciasEnabled ? integration.constanciaTariffCentavos : null,
    currentMonth: spending.current,
    previousMonth: spending.previous,
  };
}

async function homeUsage(integration: IntegrationView, now: Date): Promise<PortalHomeUsage> {
  const enabled = LOOKUPS.filter((lookup) => integration[LOOKUP_FLAGS[lookup]]);
  const routes = [...new Set(enabled.map((lookup) => LOOKUP_LIMITED_ROUTES[lookup]))];
  const [dashboard, refusals, windows] = await Promise.all([
    loadDashboard('30d', now, integration.id),
    refusalCells(startOfGuatemalanDay(guatemalanToday(now)), 'day', integration.id),
    Promise.all(routes.map((route) => currentWindowUse(route, integration.nombre))),
  ]);
  // The dashboard's last bucket is today.
  const today = dashboard.series.at(-1)!;
  const limits = routes.map((route, index): PortalMinuteLimit => {
    const lookups = enabled.filter((lookup) => LOOKUP_LIMITED_ROUTES[lookup] === route);
    return {
      route,
      lookups,
      perMinute: integrationLimitPerMinute(route),
      usedThisMinute: windows[index]!,
      // Lookups since disabled still spent from the limit today.
      queriesToday: LOOKUPS.filter((lookup) => LOOKUP_LIMITED_ROUTES[lookup] === route).reduce((sum, lookup) => sum + today.byLookup[lookup], 0),
      refusedToday: refusals.filter((cell) => cell.reason === 'rate_limited' && LOOKUP_LIMITED_ROUTES[cell.lookup] === route).reduce((sum, cell) => sum + cell.refusals, 0),
    };
  });
  return { dashboard, limits };
}

/** The limiter's count for the window open now; a store that fails is said, not guessed. */
async function currentWindowUse(route: LimitedRoute, integrationName: string): Promise<number | null> {
  try {
    return (await peekIntegrationLimit(route, integrationName)).used;
  } catch (error) {
    log.warn({ err: error, route }, 'reading a per-minute limit for Inicio failed');
    return null;
  }
}

async function homeSources(): Promise<PortalHomeSources | null> {
  const status = await publicStatus();
  if (!status) return null;
  return {
    estado: status.resumen.estado,
    texto: status.resumen.texto,
    fuentes: status.fuentes.map((source) => ({ nombre: source.nombre, estado: source.estado })),
  };
}
