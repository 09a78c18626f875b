// What GET /api/cuenta and GET /api/cuenta/movimientos answer, for the authenticated integration
// only (there is no parameter that could name another). Every figure comes from where the portal's
// Inicio and Movimientos read it: the integration's row, the ledger's checkpoints
// (lib/flows/statements/spending.ts), the limiter's own store and the balance history's keyset pages
// (lib/core/billing/history.ts). Nothing here scans the query records.
import type { LookupKind } from '@/db/schema';
import { heldInFlight, listHistoryPage, type HistoryFilters, type PostedKind } from '@/lib/core/billing/history';
import { CONTRACT_FLAG_NAMES, LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import { integrationLimitPerMinute, peekAccountApiLimit, peekIntegrationLimit } from '@/lib/core/limits/limits';
import { LOOKUP_LIMITED_ROUTES, type LimitedRoute } from '@/lib/vocabulary/lookups';
import type { WindowUse } from '@/lib/core/limits/store';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import { peekBulkApiLimit } from '@/lib/flows/bulk/pacing';
import { findIntegration } from '@/lib/flows/integration-management/service';
import { recentMonthsSpending, type MonthSpending } from '@/lib/flows/statements/spending';
import { readableLedgerNote } from '@/lib/flows/top-ups/notes';
import { env } from '@/lib/platform/settings/env';
import { bulkSettings } from '@/lib/flows/bulk/settings';
import { balanceSettings } from '@/lib/core/billing/settings';
import { logger } from '@/lib/platform/logging/logger';
import { centavosAsDecimal, CURRENCY } from '@/lib/platform/money';
import { decodeCursor } from '@/lib/platform/paging/keyset';
import { isCalendarDay } from '@/lib/platform/time/guatemala-time';
import { CHARGED_LOOKUP_ORIGIN, integratorLedgerOrigin } from '@/lib/presentation/ledger-origin';
import { lowBalanceThreshold } from '@/lib/reactions/alerts/conditions';
import { HISTORY_KIND_LABELS, LOOKUPS } from '@/lib/vocabulary/labels';
import { MOVEMENTS_PAGE_SIZE, type AccountRequestProblem } from './account-responses';
import { MOVEMENT_KINDS, type AccountBody, type MovementsBody } from './account-schemas';

const log = logger('api');

type LimitName = AccountBody['limites'][number]['limite'];

const LIMIT_NAMES: Record<LimitedRoute, LimitName> = { renap: 'renap', rtu_nits: 'rtu_nits', catalogs: 'catalogos' };

/** Paths under {base_url}, as the OpenAPI document and integrators write them. */
const underBaseUrl = (path: string) => path.replace(/^\/api/, '');

const ACCOUNT_PATHS = ['/cuenta', '/cuenta/movimientos'];
const BULK_PATHS = ['/lotes', '/vigilancias'];

/** The integration's account now; undefined when it no longer exists (deleted since the credentials' copy was read). */
export async function accountBody(integrationId: number, now = new Date()): Promise<AccountBody | undefined> {
  const integration = await findIntegration(integrationId);
  if (!integration) return undefined;
  const settings = env();
  const routes: LimitedRoute[] = ['renap', 'rtu_nits', 'catalogs'];
  const [spending, lookupWindows, bulkWindow, accountWindow] = await Promise.all([
    recentMonthsSpending(integration.id, now),
    Promise.all(routes.map((route) => windowUse(() => peekIntegrationLimit(route, integration.nombre)))),
    windowUse(() => peekBulkApiLimit(integration.nombre)),
    windowUse(() => peekAccountApiLimit(integration.nombre)),
  ]);
  const threshold = lowBalanceThreshold(integration, { lowBalanceDefaultCentavos: balanceSettings().ALERT_LOW_BALANCE_DEFAULT_CENTAVOS });
  const exhausted = integration.tariffCentavos > 0 && integration.balanceCentavos < integration.tariffCentavos;
  return {
    integracion: integration.nombre,
    activa: integration.active,
    moneda: CURRENCY,
    saldo_centavos: integration.balanceCentavos,
    saldo: centavosAsDecimal(integration.balanceCentavos),
    umbral_saldo_bajo_centavos: threshold,
    umbral_saldo_bajo: centavosAsDecimal(threshold),
    umbral_saldo_bajo_propio: integration.lowBalanceAlertCentavos !== null,
    // Exhausted says more than low, as Inicio and the notices tell one or the other.
    saldo_bajo: !exhausted && integration.balanceCentavos < threshold,
    sin_saldo: exhausted,
    consultas_que_paga: integration.tariffCentavos > 0 ? Math.floor(integration.balanceCentavos / integration.tariffCentavos) : null,
    tarifa_centavos: integration.tariffCentavos,
    tarifa: centavosAsDecimal(integration.tariffCentavos),
    constancias: {
      habilitadas: integration.constanciasEnabled,
      tarifa_centavos: integration.constanciaTariffCentavos,
      tarifa: centavosAsDecimal(integration.constanciaTariffCentavos),
    },
    consultas: LOOKUPS.map((lookup) => ({
      ruta: underBaseUrl(LOOKUP_PATHS[lookup]),
      bandera: CONTRACT_FLAG_NAMES[LOOKUP_FLAGS[lookup]],
      habilitada: integration[LOOKUP_FLAGS[lookup]],
      cobrada: LOOKUP_LIMITED_ROUTES[lookup] === 'catalogs',
      limite: LIMIT_NAMES[LOOKUP_LIMITED_ROUTES[lookup]],
    })),
    limites: [
      ...routes.map((route, index) => ({
        limite: LIMIT_NAMES[route],
        rutas: routeLookups(route).map((lookup) => underBaseUrl(LOOKUP_PATHS[lookup])),
        por_minuto: integrationLimitPerMinute(route, settings),
        usadas_este_minuto: lookupWindows[index]!,
      })),
      { limite: 'lotes' as const, rutas: BULK_PATHS, por_minuto: bulkSettings().BULK_API_PER_MINUTE, usadas_este_minuto: bulkWindow },
      { limite: 'cuenta' as const, rutas: ACCOUNT_PATHS, por_minuto: settings.ACCOUNT_API_PER_MINUTE, usadas_este_minuto: accountWindow },
    ],
    gasto: { mes_en_curso: monthBody(spending.current), mes_anterior: monthBody(spending.previous) },
  };
}

function routeLookups(route: LimitedRoute): LookupKind[] {
  return LOOKUPS.filter((lookup) => LOOKUP_LIMITED_ROUTES[lookup] === route);
}

function monthBody(month: MonthSpending): AccountBody['gasto']['mes_en_curso'] {
  return { mes: month.month, gasto_centavos: month.spentCentavos, gasto: centavosAsDecimal(month.spentCentavos), hasta: month.until.toISOString() };
}

/** The limiter's count for the window open now; a store that fails is said (null), not guessed. */
async function windowUse(peek: () => Promise<WindowUse>): Promise<number | null> {
  try {
    return (await peek()).used;
  } catch (error) {
    log.warn({ err: error }, 'reading a per-minute limit for GET /api/cuenta failed');
    return null;
  }
}

const KIND_OF: Record<PostedKind, (typeof MOVEMENT_KINDS)[number]> = { top_up: 'recarga', adjustment: 'ajuste', capture: 'consulta_cobrada', constancia: 'constancia' };
const POSTED_KIND_OF = Object.fromEntries(Object.entries(KIND_OF).map(([posted, kind]) => [kind, posted])) as Record<(typeof MOVEMENT_KINDS)[number], PostedKind>;

export interface MovementsQuery {
  filters: HistoryFilters;
  cursor?: string;
}

/** The query of GET /api/cuenta/movimientos, or the first problem with it (each answered 400). */
export function parseMovementsQuery(search: URLSearchParams): { ok: true; query: MovementsQuery } | { ok: false; problem: AccountRequestProblem } {
  const read = (name: string) => search.get(name) ?? undefined;
  const filters: HistoryFilters = {};
  const desde = read('desde');
  const hasta = read('hasta');
  const tipo = read('tipo');
  const cursor = read('cursor');
  if (desde !== undefined) {
    if (!isCalendarDay(desde)) return { ok: false, problem: 'desde' };
    filters.desde = desde;
  }
  if (hasta !== undefined) {
    if (!isCalendarDay(hasta)) return { ok: false, problem: 'hasta' };
    filters.hasta = hasta;
  }
  if (filters.desde && filters.hasta && filters.hasta < filters.desde) return { ok: false, problem: 'range' };
  if (tipo !== undefined) {
    if (!(MOVEMENT_KINDS as readonly string[]).includes(tipo)) return { ok: false, problem: 'tipo' };
    filters.tipo = POSTED_KIND_OF[tipo as (typeof MOVEMENT_KINDS)[number]];
  }
  if (cursor !== undefined && !decodeCursor(cursor)) return { ok: false, problem: 'cursor' };
  return { ok: true, query: { filters, cursor } };
}

/** One page of the integration's movements, newest first, as the portal's Movimientos lists them. */
export async function movementsBody(integrationId: number, query: MovementsQuery): Promise<MovementsBody> {
  const [page, held] = await Promise.all([listHistoryPage(integrationId, query.filters, { after: query.cursor }, MOVEMENTS_PAGE_SIZE), heldInFlight(integrationId)]);
  return {
    movimientos: page.rows.map((row) => ({
      id: row.id,
      tipo: KIND_OF[row.kind],
      descripcion: HISTORY_KIND_LABELS[row.kind],
      fecha: row.createdAt.toISOString(),
      monto_centavos: row.amountCentavos,
      monto: centavosAsDecimal(row.amountCentavos),
      saldo_despues_centavos: row.balanceAfterCentavos,
      saldo_despues: centavosAsDecimal(row.balanceAfterCentavos),
      origen: row.kind === 'capture' || row.kind === 'constancia' ? CHARGED_LOOKUP_ORIGIN : integratorLedgerOrigin(row.actor),
      nota: row.kind === 'capture' || row.kind === 'constancia' || row.note === null ? null : readableLedgerNote(row.note),
      factura_id: row.invoiceId,
    })),
    moneda: CURRENCY,
    retenido: { consultas: held.holds, monto_centavos: held.centavos, monto: centavosAsDecimal(held.centavos) },
    siguiente: page.older ?? null,
  };
}
