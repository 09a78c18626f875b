import { GroupedHorizontalBars, StackedBarChart, type ChartSeries } from '@/components/console/charts';
import { EmptyState } from '@/components/console/page-header';
import { Stat } from '@/components/console/stat';
import { bucketClock, type Dashboard, type SeriesBucket } from '@/lib/core/rollups/usage';
import { LOOKUP_LABELS, LOOKUPS, OUTCOME_LABELS, REFUSAL_REASON_LABELS } from '@/lib/vocabulary/labels';
import { LOOKUP_COLOURS } from '@/lib/vocabulary/lookups';
import { formatQuetzales } from '@/lib/platform/money';
import { OUTCOMES } from '@/lib/core/records/outcomes';
import { formatShare } from '@/lib/presentation/share';

// The figures the dashboard shows for everyone and each integration's page shows for it alone.

const OUTCOME_COLORS: Record<string, string> = { success: '#12b76a', client_error: '#fdb022', source_error: '#f04438' };
export const LOOKUP_SERIES: ChartSeries[] = LOOKUPS.map((lookup) => ({ key: lookup, label: LOOKUP_LABELS[lookup], color: LOOKUP_COLOURS[lookup] }));
export const OUTCOME_SERIES: ChartSeries[] = OUTCOMES.map((outcome) => ({ key: outcome, label: OUTCOME_LABELS[outcome], color: OUTCOME_COLORS[outcome]! }));

function bucketLabels(bucket: SeriesBucket, unit: 'hour' | 'day') {
  const { date, time } = bucketClock(bucket.start);
  // Hours carry their day: a 24-hour axis passes the same clock time twice.
  return unit === 'hour' ? { label: `${date} ${time}`, title: `${date} ${time}` } : { label: date, title: date };
}

/**
 * The usage totals of a period: queries, success rate, amount charged and refusals. Test ids are
 * `<testIdPrefix>-queries`, `-charged` and `-refused`. `showCharged` false leaves the money out
 * (the portal's developers read the use, not the money).
 */
export function UsageTotals({ dashboard, testIdPrefix, showCharged = true }: { dashboard: Dashboard; testIdPrefix: string; showCharged?: boolean }) {
  const { totals } = dashboard;
  return (
    <div className={showCharged ? 'grid grid-4' : 'grid grid-3'}>
      <Stat label="Consultas" testId={`${testIdPrefix}-queries`}>
        {totals.total.toLocaleString('es-GT')}
      </Stat>
      <Stat label="Tasa de éxito">{formatShare(totals.success, totals.total)}</Stat>
      {showCharged && (
        <Stat label="Monto cobrado" testId={`${testIdPrefix}-charged`}>
          {formatQuetzales(totals.chargedCentavos)}
        </Stat>
      )}
      <Stat label="Rechazadas antes de la fuente" testId={`${testIdPrefix}-refused`}>
        {totals.refused.toLocaleString('es-GT')}
      </Stat>
    </div>
  );
}

type Heading = 'h2' | 'h3';

/**
 * A period with queries in detail: over time by lookup and by outcome, latency, and the table per
 * lookup. `subject` names the integration in the charts' titles; `heading` fits the page's outline.
 */
export function UsageBreakdown({
  dashboard,
  subject,
  heading: Heading,
  tableTestId,
  showCharged = true,
}: {
  dashboard: Dashboard;
  subject?: string;
  heading: Heading;
  tableTestId?: string;
  showCharged?: boolean;
}) {
  return (
    <>
      <UsageCharts dashboard={dashboard} subject={subject} heading={Heading} />
      <div className="grid grid-2">
        <section className="card">
          <Heading>Tiempo de respuesta (p50 y p95)</Heading>
          <LatencyChart dashboard={dashboard} />
        </section>
        <section className="card">
          <Heading>Por tipo de consulta</Heading>
          <UsageTable dashboard={dashboard} testId={tableTestId} showCharged={showCharged} />
        </section>
      </div>
    </>
  );
}

/** Queries over time, by lookup and by outcome. */
function UsageCharts({ dashboard, subject, heading: Heading }: { dashboard: Dashboard; subject?: string; heading: Heading }) {
  const byLookup = dashboard.series.map((bucket) => ({ ...bucketLabels(bucket, dashboard.unit), values: bucket.byLookup }));
  const byOutcome = dashboard.series.map((bucket) => ({ ...bucketLabels(bucket, dashboard.unit), values: bucket.byOutcome }));
  const of = subject ? ` de ${subject}` : '';
  return (
    <div className="grid grid-2">
      <section className="card">
        <Heading>Consultas por tipo</Heading>
        <StackedBarChart title={`Consultas${of} por tipo a lo largo del tiempo`} buckets={byLookup} series={LOOKUP_SERIES} />
      </section>
      <section className="card">
        <Heading>Consultas por resultado</Heading>
        <StackedBarChart title={`Consultas${of} por resultado a lo largo del tiempo`} buckets={byOutcome} series={OUTCOME_SERIES} />
      </section>
    </div>
  );
}

function LatencyChart({ dashboard }: { dashboard: Dashboard }) {
  return (
    <GroupedHorizontalBars
      title="Percentiles 50 y 95 del tiempo de respuesta por tipo de consulta"
      unit="ms"
      series={[
        { key: 'p50', label: 'p50 (mediana)', color: '#53b1fd' },
        { key: 'p95', label: 'p95', color: '#1849a9' },
      ]}
      rows={dashboard.lookups.map((entry) => ({ label: LOOKUP_LABELS[entry.lookup], values: { p50: entry.p50Ms, p95: entry.p95Ms } }))}
    />
  );
}

/** Per lookup: queries, success rate, latency and (unless `showCharged` is false) the amount charged. */
function UsageTable({ dashboard, testId, showCharged }: { dashboard: Dashboard; testId?: string; showCharged: boolean }) {
  return (
    <div className="table-wrap" role="region" aria-label="Consultas por tipo" tabIndex={0}>
      <table className="data stacked" data-testid={testId}>
        <thead>
          <tr>
            <th>Consulta</th>
            <th className="num">Total</th>
            <th className="num">Éxito</th>
            <th className="num">p50</th>
            <th className="num">p95</th>
            {showCharged && <th className="num">Cobrado</th>}
          </tr>
        </thead>
        <tbody>
          {dashboard.lookups.map((entry) => (
            <tr key={entry.lookup}>
              <td data-label="Consulta">{LOOKUP_LABELS[entry.lookup]}</td>
              <td className="num" data-label="Total">
                {entry.total.toLocaleString('es-GT')}
              </td>
              <td className="num" data-label="Éxito">
                {formatShare(entry.success, entry.total)}
              </td>
              <td className="num" data-label="p50">
                {entry.p50Ms === null ? '—' : `${entry.p50Ms} ms`}
              </td>
              <td className="num" data-label="p95">
                {entry.p95Ms === null ? '—' : `${entry.p95Ms} ms`}
              </td>
              {showCharged && (
                <td className="num" data-label="Cobrado">
                  {formatQuetzales(entry.chargedCentavos)}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Requests refused before the source, per reason (counted, never recorded as queries). */
export function RefusalsTable({ dashboard, testId, empty }: { dashboard: Dashboard; testId: string; empty: string }) {
  if (dashboard.refusalsByReason.length === 0) return <EmptyState title={empty} />;
  return (
    <div className="table-wrap" role="region" aria-label="Solicitudes rechazadas por motivo" tabIndex={0}>
      <table className="data stacked" data-testid={testId}>
        <thead>
          <tr>
            <th>Motivo</th>
            <th className="num">Solicitudes</th>
          </tr>
        </thead>
        <tbody>
          {dashboard.refusalsByReason.map((entry) => (
            <tr key={entry.reason}>
              <td data-label="Motivo">{REFUSAL_REASON_LABELS[entry.reason]}</td>
              <td className="num" data-label="Solicitudes">
                {entry.refusals.toLocaleString('es-GT')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
