import type { Metadata } from 'next';
import Link from 'next/link';
import { BalanceHistoryTable, HeldInFlightNotice } from '@/components/console/balance-history';
import { EmptyState } from '@/components/console/page-header';
import { ReconciliationStatus } from '../../../../_components/reconciliation-status';
import { Stat } from '@/components/console/stat';
import { alertSettings, enabledChannels } from '@/lib/reactions/alerts/settings';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { integrationBalanceView } from '@/lib/surfaces/console/integration-pages';
import { balanceHistoryPath } from '@/lib/surfaces/console/integration-sections';
import { formatQuetzales } from '@/lib/platform/money';
import { integrationOrNotFound, sectionTitle } from '../../integration';
import { LowBalanceAlertSection } from '../../low-balance-alert-section';
import { MoneySection } from '../../money-section';
import { StatementsSection } from '../../statements-section';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: await sectionTitle((await params).id, 'saldo') };
}

const HISTORY_ROWS = 10;

/**
 * The integration's money: balance and tariff (changed here by administrators), the low-balance
 * alert, the latest movements (the whole history is a page of its own) and the monthly statements.
 */
export default async function IntegrationBalancePage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('support');
  const integration = await integrationOrNotFound((await params).id);
  const isAdmin = user.role === 'admin';
  const { history, held, statements, reconciliation } = await integrationBalanceView(integration.id, HISTORY_ROWS);
  const alerts = alertSettings();

  return (
    <>
      <div className="grid grid-3">
        <Stat label="Saldo" testId="balance">
          {formatQuetzales(integration.balanceCentavos)}
        </Stat>
        <Stat label="Tarifa por consulta de catálogo" testId="tariff">
          {formatQuetzales(integration.tariffCentavos)}
        </Stat>
        <Stat label="Consultas que cubre el saldo">
          {integration.tariffCentavos > 0 ? Math.floor(integration.balanceCentavos / integration.tariffCentavos).toLocaleString('es-GT') : '—'}
        </Stat>
      </div>

      {isAdmin && <MoneySection integration={integration} />}
      <LowBalanceAlertSection
        integrationId={integration.id}
        thresholdCentavos={integration.lowBalanceAlertCentavos}
        defaultCentavos={alerts.lowBalanceDefaultCentavos}
        alertsConfigured={enabledChannels(alerts).length > 0}
        isAdmin={isAdmin}
      />

      <section className="card" aria-labelledby="ledger-title" style={{ marginTop: '1rem' }}>
        <h2 id="ledger-title">Movimientos de saldo</h2>
        <HeldInFlightNotice held={held} />
        <ReconciliationStatus run={reconciliation} integrationId={integration.id} />
        {history.rows.length === 0 ? (
          <EmptyState title="Sin movimientos todavía.">
            <p>{isAdmin ? 'Recarga saldo para que la integración pueda usar los catálogos.' : 'Aparecerán aquí las recargas, ajustes y consultas cobradas.'}</p>
          </EmptyState>
        ) : (
          <BalanceHistoryTable rows={history.rows} integrationId={integration.id} canReadAudit={isAdmin} />
        )}
        <p className="small">
          <Link href={balanceHistoryPath(integration.id)}>Ver todo el historial de saldo, con filtros y exportación CSV</Link>
        </p>
      </section>

      <StatementsSection integrationId={integration.id} createdAt={integration.createdAt} statements={statements} canIssue={isAdmin} />
    </>
  );
}
