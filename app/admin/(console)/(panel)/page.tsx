import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { ReconciliationStatus, VerificationRunStatus } from '../_components/reconciliation-status';
import { InvoicingStoppedBanner, PaymentsFailingBanner } from '@/components/invoices/certifier-status';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { RefusalsTable, UsageBreakdown, UsageTotals } from '@/components/console/usage';
import { DASHBOARD_RANGE_LABELS } from '@/lib/presentation/labels';
import { dailyJobsHoursInWords } from '@/lib/presentation/daily-jobs';
import { dashboardRangeOf, dashboardView, LOW_BALANCE_SHOWN } from '@/lib/surfaces/console/dashboard';
import { formatQuetzales } from '@/lib/platform/money';
import { suggestIntegrations } from '../integration-suggestions';
import { startLedgerVerification } from './actions';
import { RefreshWhileRunning, VerifyNowForm } from './verify-now';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';

export const metadata: Metadata = { title: 'Panel' };

export default async function DashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('support');
  const params = await searchParams;
  const range = dashboardRangeOf(params);
  const { now, rangeLabel, dashboard, certifier, payments, reconciliation, names, newest, running, showLatest } = await dashboardView(range);

  return (
    <>
      <PageHeader
        title="Panel"
        description={`${rangeLabel}, en hora de Guatemala.`}
        actions={
          <nav className="range-tabs" aria-label="Periodo">
            {Object.entries(DASHBOARD_RANGE_LABELS).map(([key, label]) => (
              <Link key={key} href={`/admin?rango=${key}`} aria-current={key === range ? 'true' : undefined}>
                {label}
              </Link>
            ))}
          </nav>
        }
      />
      <InvoicingStoppedBanner health={certifier} link />
      {payments && <PaymentsFailingBanner health={payments} />}
      <UsageTotals dashboard={dashboard} testIdPrefix="total" />

      {dashboard.totals.total === 0 ? (
        <div className="card">
          <EmptyState title="No hubo consultas en este periodo.">
            <p>
              Elija un periodo más largo, o revise en <Link href="/admin/integraciones">Integraciones</Link> que haya alguna activa con consultas
              habilitadas y saldo.
            </p>
          </EmptyState>
        </div>
      ) : (
        <UsageBreakdown dashboard={dashboard} heading="h2" />
      )}

      {dashboard.refusalsByReason.length > 0 && (
        <section className="card" style={{ marginTop: '1rem' }}>
          <h2>Solicitudes rechazadas antes de la fuente</h2>
          <p className="small muted">No son registros de consultas (el contrato no las registra), pero se cuentan aquí por motivo.</p>
          <RefusalsTable dashboard={dashboard} testId="refusals" empty="Ninguna solicitud rechazada en este periodo." />
        </section>
      )}

      <section className="card" style={{ marginTop: '1rem' }}>
        <h2>Conciliación del libro mayor</h2>
        <p className="small muted">
          Comprueba que saldos, libro mayor y registros de consultas coinciden, y que las cuentas cuadran: cada pago en línea acreditado, cada recarga con su factura (o el motivo de no tenerla) y cada reembolso con su nota de crédito. Corre sola una vez al día, {dailyJobsHoursInWords()}; solo lee, nunca cambia dinero.
        </p>
        {newest && <VerificationRunStatus run={newest.run} state={newest.state} startedBy={newest.startedBy} integrationName={newest.scopeName} now={now} />}
        {running && <RefreshWhileRunning />}
        {showLatest && (
          <>
            {newest && <h3 className="small">Última conciliación completa</h3>}
            <ReconciliationStatus run={reconciliation} names={names} />
          </>
        )}
        <VerifyNowForm start={startLedgerVerification} suggest={suggestIntegrations} />
      </section>

      <section className="card" style={{ marginTop: '1rem' }}>
        <h2>Integraciones con saldo bajo ({dashboard.lowBalance.length})</h2>
        <p className="small muted">
          Activas, con algún catálogo habilitado y saldo por debajo de su umbral de alerta (el propio de cada integración o el predeterminado), o
          que ya no alcanza para una consulta: entonces sus catálogos responden 402. Es la misma regla de las alertas de saldo; se muestran las{' '}
          {LOW_BALANCE_SHOWN} de menor saldo.
        </p>
        {dashboard.lowBalance.length === 0 ? (
          <EmptyState title="Ninguna integración tiene saldo bajo." />
        ) : (
          <div className="table-wrap" role="region" aria-label="Integraciones con saldo bajo" tabIndex={0}>
            <table className="data stacked" data-testid="low-balance">
              <thead>
                <tr>
                  <th>Integración</th>
                  <th className="num">Saldo</th>
                  <th className="num">Umbral</th>
                  <th className="num">Tarifa</th>
                  <th className="num">Consultas que cubre</th>
                </tr>
              </thead>
              <tbody>
                {dashboard.lowBalance.map((integration) => (
                  <tr key={integration.id}>
                    <td data-label="Integración">
                      <Link href={integrationPath(integration.id, 'saldo')}>{integration.nombre}</Link>
                    </td>
                    <td className="num" data-label="Saldo">
                      {formatQuetzales(integration.balanceCentavos)}
                      {integration.exhausted && (
                        <>
                          {' '}
                          <span className="badge danger">agotado</span>
                        </>
                      )}
                    </td>
                    <td className="num" data-label="Umbral">
                      {formatQuetzales(integration.thresholdCentavos)}
                    </td>
                    <td className="num" data-label="Tarifa">
                      {formatQuetzales(integration.tariffCentavos)}
                    </td>
                    <td className="num" data-label="Consultas que cubre">
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
