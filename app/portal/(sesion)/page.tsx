import { topUpGuidance } from '@/lib/presentation/top-up-guidance';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';
import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Stat } from '@/components/console/stat';
import { UsageBreakdown, UsageTotals } from '@/components/console/usage';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { monthName } from '@/lib/platform/time/months';
import type { LimitedRoute } from '@/lib/vocabulary/lookups';
import { formatQuetzales } from '@/lib/platform/money';
import { portalHome, type PortalHome, type PortalHomeBalance, type PortalHomeMoney, type PortalHomeSources, type PortalHomeUsage } from '@/lib/surfaces/portal/home';
import { BILLING_READERS, PORTAL_ROLE_DESCRIPTIONS, PORTAL_ROLE_LABELS, TOP_UP_REPORTERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { SOURCE_STATE_TEXT, type SourceState } from '@/lib/reactions/status-page/states';

export const metadata: Metadata = { title: 'Inicio' };

const LIMIT_LABELS: Record<LimitedRoute, string> = {
  renap: 'RENAP por CUI',
  rtu_nits: 'RTU por NIT',
  catalogs: 'Catálogos',
};

const SOURCE_BADGE: Record<SourceState, string> = { operando: 'ok', degradado: 'warn', sin_servicio: 'danger' };

/** What goes untold without each contact's address (each kind's contact: lib/reactions/integrator-notifications/kinds), keyed by the missing ones. */
const MISSING_CONTACTS_TEXT: Record<string, string> = {
  'technical billing': 'Su integración no tiene correos de contacto técnico ni de facturación: nadie recibe por correo los avisos del servicio, tampoco el de saldo bajo. Escríbalos en',
  billing: 'Su integración no tiene correo de contacto de facturación: nadie recibe por correo el aviso de saldo bajo ni los de recargas y estados de cuenta. Escríbalo en',
  technical: 'Su integración no tiene correo de contacto técnico: nadie recibe por correo los avisos de sus tokens, de las fuentes ni de sus lotes. Escríbalo en',
};

// Inicio: the session's integration now, each part for the roles that may read it (lib/surfaces/portal/home.ts):
// everyone the balance (read-only) and the sources, owners and billing the spending and the tariff,
// owners and developers the use and the limits.
export default async function PortalHomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage();
  const [home, params] = await Promise.all([portalHome(user), searchParams]);
  const canTopUp = TOP_UP_REPORTERS.includes(user.role);
  // Who may report a deposit is led to Recargas; the others are told who does.
  const ways = { paysOnline: configuredPaymentProvider() !== null };
  const topUp = canTopUp ? (
    <>
      {topUpGuidance(ways)} Vaya a <Link href="/portal/recargas">Recargas</Link>.
    </>
  ) : (
    'Avise a un propietario o a facturación: ellos lo recargan en Recargas.'
  );
  return (
    <>
      <PageHeader title={home.integrationName} description={`Su rol: ${PORTAL_ROLE_LABELS[user.role]} (${PORTAL_ROLE_DESCRIPTIONS[user.role]}).`} />
      {params.bienvenida === '1' && (
        <p className="notice success" role="status">
          Hola, {user.name}: su cuenta del portal está lista.
        </p>
      )}
      {!home.active && (
        <p className="notice warn" role="status">
          Esta integración está desactivada: sus consultas se rechazan. Escriba al equipo del servicio para reactivarla.
        </p>
      )}
      {home.missingContacts && home.missingContacts.length > 0 && (
        <p className="notice warn" role="status" data-testid="portal-contacts-missing">
          {MISSING_CONTACTS_TEXT[home.missingContacts.join(' ')]} <Link href="/portal/notificaciones">Notificaciones</Link>.
        </p>
      )}
      {home.catalogsNeedBalance && (
        <p className="notice warn" role="status" data-testid="portal-balance-short">
          El saldo de la integración no alcanza para una consulta de catálogo: responden 402 hasta la siguiente recarga. {topUp}
        </p>
      )}
      {home.balance?.low && (
        <p className="notice warn" role="status" data-testid="portal-balance-low">
          {`El saldo, ${formatQuetzales(home.balance.balanceCentavos)}, está por debajo del umbral de aviso de saldo bajo (${formatQuetzales(home.balance.lowBalanceCentavos)}).`} {topUp}
        </p>
      )}
      {home.balance && <BalanceSection balance={home.balance} money={home.money} canTopUp={canTopUp} />}
      {home.usage && <UsageSection usage={home.usage} showCharged={BILLING_READERS.includes(user.role)} />}
      <ServiceManagedSection
        lookups={home.lookups}
        tariffCentavos={home.money?.tariffCentavos ?? null}
        constanciaTariffCentavos={home.money?.constanciaTariffCentavos ?? null}
        supportEmail={home.supportEmail}
      />
      <SourcesSection sources={home.sources} />
    </>
  );
}

/** The balance for every role, read-only; the spending and the tariff only with `money` (BILLING_READERS). */
function BalanceSection({ balance, money, canTopUp }: { balance: PortalHomeBalance; money: PortalHomeMoney | null; canTopUp: boolean }) {
  return (
    <section aria-labelledby="balance-title">
      <h2 id="balance-title">Saldo</h2>
      <div className="grid grid-3">
        <Stat label="Saldo" testId="portal-balance">
          {formatQuetzales(balance.balanceCentavos)}
        </Stat>
        {money && (
          <>
            <Stat label={`Gastado en ${monthName(money.currentMonth.month)} (hasta ahora)`} testId="portal-spent-current">
              {formatQuetzales(money.currentMonth.spentCentavos)}
            </Stat>
            <Stat label={`Gastado en ${monthName(money.previousMonth.month)}`} testId="portal-spent-previous">
              {formatQuetzales(money.previousMonth.spentCentavos)}
            </Stat>
          </>
        )}
        <Stat label="Aviso de saldo bajo" testId="portal-low-balance">
          {balance.lowBalanceCentavos === 0 ? 'Solo al agotarse' : `Por debajo de ${formatQuetzales(balance.lowBalanceCentavos)}`}
        </Stat>
        <Stat label="Consultas de catálogo que cubre el saldo" testId="portal-lookups-left">
          {balance.lookupsLeft === null ? '—' : balance.lookupsLeft.toLocaleString('es-GT')}
        </Stat>
      </div>
      <div className="card">
        {money && (
          <p data-testid="portal-tariff">
            {money.tariffCentavos > 0
              ? `Las consultas de catálogo (CUI/NIT, RTU y omisos) se pagan del saldo, a ${formatQuetzales(money.tariffCentavos)} cada una. Sin saldo suficiente, responden 402 hasta la siguiente recarga.`
              : 'Las consultas de catálogo (CUI/NIT, RTU y omisos) no tienen costo para su integración por ahora: su tarifa es Q 0.00.'}
          </p>
        )}
        <p className="small muted">
          {money && 'Lo gastado es lo que cobraron las consultas de catálogo en cada mes (hora de Guatemala); las recargas y los ajustes no cuentan. '}
          {balance.lowBalanceIsOwn ? 'El aviso de saldo bajo usa el umbral propio de su integración.' : 'El aviso de saldo bajo usa el umbral predeterminado del servicio.'}{' '}
          {canTopUp ? topUpGuidance({ paysOnline: configuredPaymentProvider() !== null }) : 'Sin saldo, las consultas de catálogo responden 402; lo recarga un propietario o facturación, en Recargas.'}
        </p>
        {canTopUp && (
          <p>
            <Link href="/portal/recargas" data-testid="portal-top-up-link">
              Recargar el saldo
            </Link>
          </p>
        )}
      </div>
    </section>
  );
}

function UsageSection({ usage, showCharged }: { usage: PortalHomeUsage; showCharged: boolean }) {
  const { dashboard } = usage;
  return (
    <>
      <section aria-labelledby="usage-title" data-testid="portal-usage">
        <h2 id="usage-title">Uso en los últimos 30 días</h2>
        <UsageTotals dashboard={dashboard} testIdPrefix="portal-usage" showCharged={showCharged} />
        {dashboard.totals.total === 0 ? (
          <div className="card">
            <EmptyState title="Su integración todavía no tiene consultas en estos 30 días." />
          </div>
        ) : (
          <UsageBreakdown dashboard={dashboard} heading="h3" tableTestId="portal-usage-by-lookup" showCharged={showCharged} />
        )}
        <p className="small muted">Cifras por día de Guatemala; las consultas de los últimos segundos pueden tardar unos instantes en sumarse.</p>
      </section>
      <LimitsSection usage={usage} />
    </>
  );
}

function LimitsSection({ usage }: { usage: PortalHomeUsage }) {
  return (
    <section className="card" aria-labelledby="limits-title">
      <h2 id="limits-title">Límites por minuto</h2>
      <p className="small muted">
        Cada límite cuenta las consultas de un minuto; al llegar a él, las siguientes responden 429 hasta que termina ese minuto. «En el minuto actual» es lo que
        lleva contado el minuto que corre ahora; «Rechazadas hoy» son las respuestas 429 de hoy por ese límite. Los tres catálogos comparten un límite.
      </p>
      {usage.limits.length === 0 ? (
        <EmptyState title="Su integración no tiene consultas habilitadas." />
      ) : (
        <div className="table-wrap" role="region" aria-label="Límites por minuto" tabIndex={0}>
          <table className="data stacked" data-testid="portal-limits">
            <thead>
              <tr>
                <th>Consultas</th>
                <th className="num">Límite por minuto</th>
                <th className="num">En el minuto actual</th>
                <th className="num">Consultas hoy</th>
                <th className="num">Rechazadas hoy (429)</th>
              </tr>
            </thead>
            <tbody>
              {usage.limits.map((limit) => (
                <tr key={limit.route} data-route={limit.route}>
                  <td data-label="Consultas">
                    {LIMIT_LABELS[limit.route]}
                    {limit.route === 'catalogs' && <span className="small muted"> ({limit.lookups.map((lookup) => LOOKUP_LABELS[lookup].replace('Catálogo ', '')).join(', ')})</span>}
                  </td>
                  <td className="num" data-label="Límite por minuto">
                    {limit.perMinute.toLocaleString('es-GT')}
                  </td>
                  <td className="num" data-label="En el minuto actual" data-testid="portal-limit-used">
                    {limit.usedThisMinute === null ? 'No disponible' : `${limit.usedThisMinute.toLocaleString('es-GT')} de ${limit.perMinute.toLocaleString('es-GT')}`}
                  </td>
                  <td className="num" data-label="Consultas hoy" data-testid="portal-limit-today">
                    {limit.queriesToday.toLocaleString('es-GT')}
                  </td>
                  <td className="num" data-label="Rechazadas hoy (429)" data-testid="portal-limit-refused">
                    {limit.refusedToday.toLocaleString('es-GT')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * What stays with the service's administrators: the lookups enabled (to the
 * roles whose systems call them) and the tariff (its amount only to the roles that read the money),
 * read-only, and whom to ask to change them, a balance or the integration's deactivation.
 */
function ServiceManagedSection({
  lookups,
  tariffCentavos,
  constanciaTariffCentavos,
  supportEmail,
}: {
  lookups: PortalHome['lookups'];
  tariffCentavos: number | null;
  constanciaTariffCentavos: number | null;
  supportEmail: string | null;
}) {
  return (
    <section className="card" aria-labelledby="service-managed-title" data-testid="portal-service-managed">
      <h2 id="service-managed-title">Consultas habilitadas y tarifa</h2>
      {lookups && (
        <ul data-testid="portal-lookups">
          {lookups.map(({ lookup, enabled }) => (
            <li key={lookup} data-lookup={lookup}>
              {LOOKUP_LABELS[lookup]}: <span className={enabled ? 'badge ok' : 'badge'}>{enabled ? 'Habilitada' : 'No habilitada'}</span>
            </li>
          ))}
        </ul>
      )}
      {tariffCentavos !== null && <p data-testid="portal-service-tariff">{`Tarifa por consulta de catálogo: ${formatQuetzales(tariffCentavos)}.`}</p>}
      {constanciaTariffCentavos !== null && (
        <p data-testid="portal-service-constancia-tariff">
          {constanciaTariffCentavos > 0
            ? `Tarifa por constancia de consulta: ${formatQuetzales(constanciaTariffCentavos)}, cobrada con la consulta que la pide, aparte de su tarifa. Sin saldo que la cubra, la consulta responde sin constancia.`
            : 'Las constancias de consulta no tienen costo para su integración por ahora: su tarifa es Q 0.00.'}
        </p>
      )}
      <p data-testid="portal-ask-service">
        Habilitar o deshabilitar una consulta, cambiar la tarifa, recargar o ajustar el saldo directamente y desactivar la integración lo hace el equipo del servicio, no
        el portal. Escriba a {supportEmail ? <a href={`mailto:${supportEmail}`}>{supportEmail}</a> : 'su contacto de soporte'}. Cuando cambian la tarifa o las consultas habilitadas, los contactos
        de su integración reciben un aviso.
      </p>
    </section>
  );
}

function SourcesSection({ sources }: { sources: PortalHomeSources | null }) {
  return (
    <section className="card" aria-labelledby="sources-title" data-testid="portal-sources">
      <h2 id="sources-title">Estado de las fuentes</h2>
      {sources === null ? (
        <p>El estado de las fuentes no se pudo leer ahora.</p>
      ) : (
        <>
          <p data-testid="portal-sources-summary">{sources.texto}</p>
          <ul>
            {sources.fuentes.map((source) => (
              <li key={source.nombre}>
                {source.nombre}: <span className={`badge ${SOURCE_BADGE[source.estado]}`}>{SOURCE_STATE_TEXT[source.estado]}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        {/* A full load, not the router's: /estado is a public page answered from its own cache, outside the portal. */}
        <a href="/estado">Ver el estado de las fuentes en detalle (por día y por hora, incidentes)</a>
      </p>
    </section>
  );
}
