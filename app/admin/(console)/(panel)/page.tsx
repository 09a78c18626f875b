import type { Metadata } from 'next';
import Link from 'next/link';
import { GroupedHorizontalBars, StackedBarChart, type ChartSeries } from '@/components/console/charts';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { ReconciliationStatus } from '@/components/console/reconciliation-status';
import { requirePageUser } from '@/lib/auth/session';
import { latestVerification } from '@/lib/billing/verify';
import { bucketClock, DASHBOARD_RANGES, LOW_BALANCE_QUERIES, loadDashboard, parseDashboardRange, type SeriesBucket } from '@/lib/console/dashboard';
import { LOOKUP_LABELS, LOOKUPS, OUTCOME_LABELS, REFUSAL_REASON_LABELS } from '@/lib/format/labels';
import { OUTCOMES } from '@/lib/records/outcomes';
import { formatQuetzales } from '@/lib/money';

export const metadata: Metadata = { title: 'Panel' };

const LOOKUP_COLORS: Record<string, string> = { renap: '#2e90fa', rtu_nits: '#7a5af8', cui_nit: '#12b76a', rtu: '#f79009', omisos: '#ee46bc' };
const OUTCOME_COLORS: Record<string, string> = { success: '#12b76a', client_error: '#fdb022', source_error: '#f04438' };
const LOOKUP_SERIES: ChartSeries[] = LOOKUPS.map((lookup) => ({ key: lookup, label: LOOKUP_LABELS[lookup], color: LOOKUP_COLORS[lookup]! }));
const OUTCOME_SERIES: ChartSeries[] = OUTCOMES.map((outcome) => ({ key: outcome, label: OUTCOME_LABELS[outcome], color: OUTCOME_COLORS[outcome]! }));

function percent(part: number, total: number): string {
  return total === 0 ? '—' : `${((part / total) * 100).toLocaleString('es-GT', { maximumFractionDigits: 1 })} %`;
}

function bucketLabels(bucket: SeriesBucket, unit: 'hour' | 'day') {
  const { date, time } = bucketClock(bucket.start);
  // Hours carry their day: a 24-hour axis passes the same clock time twice.
  return unit === 'hour' ? { label: `${date} ${time}`, title: `${date} ${time}` } : { label: date, title: date };
}

export default async function DashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('support');
  const params = await searchParams;
  const range = parseDashboardRange(typeof params.rango === 'string' ? params.rango : undefined);
  const [dashboard, reconciliation] = await Promise.all([loadDashboard(range), latestVerification()]);
  const unit = dashboard.unit;
  const byLookup = dashboard.series.map((bucket) => ({ ...bucketLabels(bucket, unit), values: bucket.byLookup }));
  const byOutcome = dashboard.series.map((bucket) => ({ ...bucketLabels(bucket, unit), values: bucket.byOutcome }));

  return (
    <>
      <PageHeader
        title="Panel"
        description={`${DASHBOARD_RANGES[range].label}, en hora de Guatemala.`}
        actions={
          <nav className="range-tabs" aria-label="Periodo">
            {Object.entries(DASHBOARD_RANGES).map(([key, value]) => (
              <Link key={key} href={`/admin?rango=${key}`} aria-current={key === range ? 'true' : undefined}>
                {value.label}
              </Link>
            ))}
          </nav>
        }
      />
      <div className="grid grid-4">
        <div className="stat">
          <div className="label">Consultas</div>
          <div className="value" data-testid="total-queries">
            {dashboard.totals.total.toLocaleString('es-GT')}
          </div>
        </div>
        <div className="stat">
          <div className="label">Tasa de éxito</div>
          <div className="value">{percent(dashboard.totals.success, dashboard.totals.total)}</div>
        </div>
        <div className="stat">
          <div className="label">Monto cobrado</div>
          <div className="value" data-testid="total-charged">
            {formatQuetzales(dashboard.totals.chargedCentavos)}
          </div>
        </div>
        <div className="stat">
          <div className="label">Rechazadas antes de la fuente</div>
          <div className="value" data-testid="total-refused">
            {dashboard.totals.refused.toLocaleString('es-GT')}
          </div>
        </div>
      </div>

      {dashboard.totals.total === 0 ? (
        <div className="card">
          <EmptyState title="No hubo consultas en este periodo.">
            <p>
              Elige un periodo más largo, o revisa en <Link href="/admin/integraciones">Integraciones</Link> que haya alguna activa con consultas
              habilitadas y saldo.
            </p>
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="grid grid-2">
            <section className="card">
              <h2>Consultas por tipo</h2>
              <StackedBarChart title="Consultas por tipo a lo largo del tiempo" buckets={byLookup} series={LOOKUP_SERIES} />
            </section>
            <section className="card">
              <h2>Consultas por resultado</h2>
              <StackedBarChart title="Consultas por resultado a lo largo del tiempo" buckets={byOutcome} series={OUTCOME_SERIES} />
            </section>
          </div>
          <div className="grid grid-2">
            <section className="card">
              <h2>Tiempo de respuesta (p50 y p95)</h2>
              <GroupedHorizontalBars
                title="Percentiles 50 y 95 del tiempo de respuesta por tipo de consulta"
                unit="ms"
                series={[
                  { key: 'p50', label: 'p50 (mediana)', color: '#53b1fd' },
                  { key: 'p95', label: 'p95', color: '#1849a9' },
                ]}
                rows={dashboard.lookups.map((entry) => ({ label: LOOKUP_LABELS[entry.lookup], values: { p50: entry.p50Ms, p95: entry.p95Ms } }))}
              />
            </section>
            <section className="card">
              <h2>Por tipo de consulta</h2>
              <div className="table-wrap" role="region" aria-label="Consultas por tipo" tabIndex={0}>
                <table className="data">
                  <thead>
                    <tr>
                      <th>Consulta</th>
                      <th className="num">Total</th>
                      <th className="num">Éxito</th>
                      <th className="num">p50</th>
                      <th className="num">p95</th>
                      <th className="num">Cobrado</th>
                    </tr>
                  </thead>
                  <tbody>
                    {dashboard.lookups.map((entry) => (
                      <tr key={entry.lookup}>
                        <td>{LOOKUP_LABELS[entry.lookup]}</td>
                        <td className="num">{entry.total.toLocaleString('es-GT')}</td>
                        <td className="num">{percent(entry.success, entry.total)}</td>
                        <td className="num">{entry.p50Ms === null ? '—' : `${entry.p50Ms} ms`}</td>
                        <td className="num">{entry.p95Ms === null ? '—' : `${entry.p95Ms} ms`}</td>
                        <td className="num">{formatQuetzales(entry.chargedCentavos)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          </div>
        </>
      )}

      {dashboard.refusalsByReason.length > 0 && (
        <section className="card" style={{ marginTop: '1rem' }}>
          <h2>Solicitudes rechazadas antes de la fuente</h2>
          <p className="small muted">No son registros de consultas (el contrato no las registra), pero se cuentan aquí por motivo.</p>
          <div className="table-wrap" role="region" aria-label="Solicitudes rechazadas por motivo" tabIndex={0}>
            <table className="data" data-testid="refusals">
              <thead>
                <tr>
                  <th>Motivo</th>
                  <th className="num">Solicitudes</th>
                </tr>
              </thead>
              <tbody>
                {dashboard.refusalsByReason.map((entry) => (
                  <tr key={entry.reason}>
                    <td>{REFUSAL_REASON_LABELS[entry.reason]}</td>
                    <td className="num">{entry.refusals.toLocaleString('es-GT')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      <section className="card" style={{ marginTop: '1rem' }}>
        <h2>Conciliación del libro mayor</h2>
        <ReconciliationStatus run={reconciliation} />
      </section>

      <section className="card" style={{ marginTop: '1rem' }}>
        <h2>Integraciones con saldo bajo ({dashboard.lowBalance.length})</h2>
        <p className="small muted">
          Activas, con algún catálogo habilitado y saldo para menos de {LOW_BALANCE_QUERIES} consultas (o saldo cero): sin saldo, los catálogos
          responden 402.
        </p>
        {dashboard.lowBalance.length === 0 ? (
          <EmptyState title="Ninguna integración tiene saldo bajo." />
        ) : (
          <div className="table-wrap" role="region" aria-label="Integraciones con saldo bajo" tabIndex={0}>
            <table className="data">
              <thead>
                <tr>
                  <th>Integración</th>
                  <th className="num">Saldo</th>
                  <th className="num">Tarifa</th>
                  <th className="num">Consultas que cubre</th>
                </tr>
              </thead>
              <tbody>
                {dashboard.lowBalance.map((integration) => (
                  <tr key={integration.id}>
                    <td>
                      <Link href={`/admin/integraciones/${integration.id}`}>{integration.nombre}</Link>
                    </td>
                    <td className="num">{formatQuetzales(integration.balanceCentavos)}</td>
                    <td className="num">{formatQuetzales(integration.tariffCentavos)}</td>
                    <td className="num">
                      {integration.tariffCentavos > 0 ? Math.floor(integration.balanceCentavos / integration.tariffCentavos).toLocaleString('es-GT') : '0'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
